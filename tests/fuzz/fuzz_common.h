/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the libFuzzer harnesses of tests/fuzz/ share (issue 40): a copy of
 * one of msprof's samples (../shared/reference, or VNPU_REFERENCE) in a
 * scratch folder under /dev/shm, made once per process, into which each
 * input is written as one of the folder's files before its reader runs.
 * The readers are the library's own (export/ascend.h), linked from
 * objects built with the same sanitizers.
 *
 * An input starts with a selector byte: bit 0 picks the sample (the plain
 * one or the HCCL one), the rest the file it becomes (harness's table).
 */
#ifndef VNPU_FUZZ_COMMON_H
#define VNPU_FUZZ_COMMON_H

#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/ascend.h"

#ifndef FUZZ_REFERENCE
#define FUZZ_REFERENCE "../shared/reference"
#endif

static const char *const fuzz_samples[2] = {
	"msprof-sample/PROF_000001_20250101000000000_SIMULATOR",
	"msprof-sample-hccl/PROF_000001_20250101000000000_SIMRANK0",
};

/* the two copies, made by fuzz_setup() */
static char fuzz_prof[2][PATH_MAX];
static char fuzz_scratch[64];

static inline void fuzz_cleanup(void)
{
	char cmd[128];

	if (!fuzz_scratch[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", fuzz_scratch);
	if (system(cmd))
		fprintf(stderr, "fuzz: cannot remove %s\n", fuzz_scratch);
}

/* copy @src's host/ and device_0/ to @dst; exits on failure: no sample, no fuzzing */
static inline void fuzz_copy(const char *src, const char *dst)
{
	char cmd[3 * PATH_MAX + 64];

	snprintf(cmd, sizeof(cmd), "rm -rf %s && mkdir -p %s && cp -r %s/host %s/device_0 %s/", dst,
		 dst, src, src, dst);
	if (system(cmd)) {
		fprintf(stderr, "fuzz: cannot copy %s (set VNPU_REFERENCE)\n", src);
		exit(2);
	}
	snprintf(cmd, sizeof(cmd), "chmod -R u+w %s", dst);
	if (system(cmd))
		exit(2);
}

static inline void fuzz_setup(void)
{
	const char *ref = getenv("VNPU_REFERENCE");
	char src[2 * PATH_MAX];

	if (!ref)
		ref = FUZZ_REFERENCE;
	snprintf(fuzz_scratch, sizeof(fuzz_scratch), "/dev/shm/vnpu-fuzz-XXXXXX");
	if (access("/dev/shm", W_OK) || !mkdtemp(fuzz_scratch)) {
		snprintf(fuzz_scratch, sizeof(fuzz_scratch), "/tmp/vnpu-fuzz-XXXXXX");
		if (!mkdtemp(fuzz_scratch))
			exit(2);
	}
	atexit(fuzz_cleanup);
	for (int i = 0; i < 2; i++) {
		snprintf(fuzz_prof[i], sizeof(fuzz_prof[i]), "%s/s%d/%s", fuzz_scratch, i,
			 strchr(fuzz_samples[i], '/') + 1);
		snprintf(src, sizeof(src), "%s/%s", ref, fuzz_samples[i]);
		fuzz_copy(src, fuzz_prof[i]);
	}
}

/* @prof/@name := @data (@len bytes); -1 on failure */
static inline int fuzz_put(const char *prof, const char *name, const uint8_t *data, size_t len)
{
	char path[PATH_MAX + 128];
	size_t done;
	int fd, rc;

	snprintf(path, sizeof(path), "%s/%s", prof, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	rc = npx_write_at(fd, data, len, -1, &done);
	close(fd);
	return rc ? -1 : 0;
}

/* put back @name of sample @s as the sample has it (or remove it: it has none) */
static inline void fuzz_restore(int s, const char *name)
{
	const char *ref = getenv("VNPU_REFERENCE");
	char src[2 * PATH_MAX], dst[PATH_MAX + 128];
	struct npuprof_error err;
	size_t len;
	char *buf;

	if (!ref)
		ref = FUZZ_REFERENCE;
	snprintf(src, sizeof(src), "%s/%s/%s", ref, fuzz_samples[s], name);
	snprintf(dst, sizeof(dst), "%s/%s", fuzz_prof[s], name);
	if (npx_input_read(src, 1ULL << 30, "sample file", &buf, &len, &err)) {
		unlink(dst);
		return;
	}
	if (fuzz_put(fuzz_prof[s], name, (const uint8_t *)buf, len))
		fprintf(stderr, "fuzz: cannot restore %s\n", dst);
	free(buf);
}

/*
 * Seeds (tools/fuzz.sh): with VNPU_FUZZ_SEEDS=DIR a harness writes into DIR
 * one input per file of @names (@n of them) of each source folder, the two
 * samples and those VNPU_FUZZ_SEED_FROM lists (blank-separated PROF_*
 * folders: the demo's), its selector byte first, and exits. The tables of
 * the harnesses are the one place the file names are listed.
 */
static inline void fuzz_seed_one(const char *dir, unsigned int k, uint8_t sel, const char *src)
{
	struct npuprof_error err;
	char out[PATH_MAX + 32];
	size_t len;
	char *buf;

	if (npx_input_read(src, 1ULL << 20, "seed", &buf, &len, &err))
		return; /* that folder has no such file, or a large one: no seed */
	snprintf(out, sizeof(out), "seed-%u", k);
	{
		uint8_t *in = malloc(len + 1);

		if (!in)
			exit(2);
		in[0] = sel;
		memcpy(in + 1, buf, len);
		if (fuzz_put(dir, out, in, len + 1))
			exit(2);
		free(in);
	}
	free(buf);
}

/* the source folders of seeds, into @src (at most @max): their number */
static inline unsigned int fuzz_seed_sources(char src[][PATH_MAX], unsigned int max)
{
	const char *ref = getenv("VNPU_REFERENCE"), *extra = getenv("VNPU_FUZZ_SEED_FROM");
	unsigned int n = 0;

	if (!ref)
		ref = FUZZ_REFERENCE;
	for (int i = 0; i < 2 && n < max; i++)
		snprintf(src[n++], PATH_MAX, "%s/%s", ref, fuzz_samples[i]);
	while (extra && *extra && n < max) {
		size_t l = strcspn(extra, " ");

		if (l)
			snprintf(src[n++], PATH_MAX, "%.*s", (int)l, extra);
		extra += l + (extra[l] == ' ');
	}
	return n;
}

static inline void fuzz_write_seeds(const char *const *names, size_t stride, size_t n)
{
	const char *dir = getenv("VNPU_FUZZ_SEEDS");
	char src[8][PATH_MAX], path[2 * PATH_MAX];
	unsigned int ns, k = 0;

	if (!dir)
		return;
	ns = fuzz_seed_sources(src, 8);
	for (unsigned int s = 0; s < ns; s++)
		for (size_t f = 0; f < n; f++) {
			const char *name = *(const char *const *)((const char *)names + f * stride);

			snprintf(path, sizeof(path), "%s/%s", src[s], name);
			/* bit 0: the sample the file goes into; a third folder's into the first */
			fuzz_seed_one(dir, k++, (uint8_t)(f << 1 | (s == 1)), path);
		}
	exit(0);
}

#endif /* VNPU_FUZZ_COMMON_H */
