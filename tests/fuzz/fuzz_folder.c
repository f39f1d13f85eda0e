// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: a whole PROF folder through npuprof_export(), from a
 * tar-like blob. The blob is a run of entries
 *
 *   u8 path   index into paths[] below (modulo its size)
 *   u8 kind   0-4 a regular file, 5 a link to /dev/zero, 6 a link to
 *             itself (a loop), 7 a FIFO, 8 a folder (modulo 9)
 *   u32 len   little endian, then len bytes (cut to what is left)
 *
 * written into an empty folder (a later entry for a path is skipped if the
 * path exists), which is then exported with its output beside it. Paths
 * come from a fixed list, so no input writes outside the scratch folder.
 */
#include <ftw.h>
#include <sys/stat.h>

#include "npuprof_export.h"
#include "fuzz_common.h"

static const char *const paths[] = {
	"host/info.json",
	"host/sample.json",
	"host/start_info",
	"host/end_info",
	"host/host_start.log",
	"host/" NPF_RAW_LOSS_FILE,
	"host/data/unaging.api_event.data.slice_0",
	"host/data/unaging.compact.node_basic_info.slice_0",
	"host/data/unaging.compact.task_track.slice_0",
	"host/data/unaging.additional.hash_dic.slice_0",
	"host/data/unaging.additional.type_info_dic.slice_0",
	"host/data/unaging.compact.hccl_op_info.slice_0",
	"host/data/unaging.additional.hccl_info.slice_0",
	"host/data/unaging.additional.tensor_info.slice_0",
	"host/data/unaging.additional.context_id_info.slice_0",
	"device_0/info.json.0",
	"device_0/sample.json",
	"device_0/start_info.0",
	"device_0/end_info.0",
	"device_0/host_start.log.0",
	"device_0/dev_start.log.0",
	"device_0/" NPF_RAW_LOSS_FILE,
	"device_0/data/stars_soc.data.0.slice_0",
	"device_0/data/ffts_profile.data.0.slice_0",
	"device_0/data/ts_track.data.0.slice_0",
	"device_0/data/aicpu.data.0.slice_0",
	"device_0/data/hwts.data.0.slice_0",
	"device_0/data/aicore.data.0.slice_0",
	"device_0/data/stars_soc.data.0.slice_1",
	"device_1/info.json.1",
	"device_1/start_info.1",
	"device_1/host_start.log.1",
	"device_1/dev_start.log.1",
	"device_1/data/stars_soc.data.1.slice_0",
	"device_0",
	"device_0/data",
	"host/data",
	NPF_OUTPUT_DIR,
};

static char prof[PATH_MAX];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* VNPU_FUZZ_SEEDS (fuzz_common.h): each source folder as one blob of regular files */
static void folder_seeds(void)
{
	const char *dir = getenv("VNPU_FUZZ_SEEDS");
	char src[8][PATH_MAX], path[2 * PATH_MAX], name[32];
	unsigned int ns;

	if (!dir)
		return;
	ns = fuzz_seed_sources(src, 8);
	for (unsigned int s = 0; s < ns; s++) {
		uint8_t *blob = NULL;
		size_t n = 0;

		for (size_t p = 0; p < NPX_ARRAY_SIZE(paths); p++) {
			struct npuprof_error err;
			size_t len;
			char *buf;
			uint8_t *b;

			snprintf(path, sizeof(path), "%s/%s", src[s], paths[p]);
			if (npx_input_read(path, 1ULL << 20, "seed", &buf, &len, &err))
				continue;
			b = realloc(blob, n + 6 + len);
			if (!b)
				exit(2);
			blob = b;
			blob[n] = (uint8_t)p;
			blob[n + 1] = 0;
			for (int i = 0; i < 4; i++)
				blob[n + 2 + i] = (uint8_t)(len >> (8 * i));
			memcpy(blob + n + 6, buf, len);
			n += 6 + len;
			free(buf);
		}
		snprintf(name, sizeof(name), "seed-%u", s);
		if (fuzz_put(dir, name, blob, n))
			exit(2);
		free(blob);
	}
	exit(0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	folder_seeds();
	fuzz_setup();
	snprintf(prof, sizeof(prof), "%s/f/PROF_000001_20250101000000000_FUZZ", fuzz_scratch);
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path) && errno != ENOENT ? -1 : 0;
	return unlink(path) && errno != ENOENT ? -1 : 0;
}

/* mkdir -p of @path's parents; 0, or -1 when one is in the way (a file, a link) */
static int parents(char *path)
{
	for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = 0;
		if (mkdir(path, 0755) && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return 0;
}

static void entry(const char *rel, unsigned int kind, const uint8_t *data, size_t len)
{
	char path[2 * PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", prof, rel);
	if (parents(path) || !lstat(path, &st))
		return;
	switch (kind) {
	case 5:
		if (symlink("/dev/zero", path))
			return;
		break;
	case 6:
		if (symlink(strrchr(path, '/') + 1, path))
			return;
		break;
	case 7:
		if (mkfifo(path, 0644))
			return;
		break;
	case 8:
		if (mkdir(path, 0755))
			return;
		break;
	default: {
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		size_t done;

		if (fd < 0)
			return;
		if (npx_write_at(fd, data, len, -1, &done))
			abort(); /* the scratch folder is full: nothing more means anything */
		close(fd);
	}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct npuprof_export_opts o = { .sz = sizeof(o),
					 .timestamp = "20260101000000",
					 .quiet = 1 };
	struct npuprof_error err;
	size_t at = 0;

	if (nftw(prof, rm_one, 16, FTW_DEPTH | FTW_PHYS) && errno != ENOENT)
		abort();
	if (parents(prof) || (mkdir(prof, 0755) && errno != EEXIST))
		abort();
	while (at + 6 <= size) {
		unsigned int p = data[at] % NPX_ARRAY_SIZE(paths), kind = data[at + 1] % 9;
		uint32_t len = (uint32_t)data[at + 2] | (uint32_t)data[at + 3] << 8 |
			       (uint32_t)data[at + 4] << 16 | (uint32_t)data[at + 5] << 24;

		at += 6;
		if (len > size - at)
			len = (uint32_t)(size - at);
		entry(paths[p], kind, data + at, len);
		at += len;
	}
	npuprof_export(prof, &o, &err);
	return 0;
}
