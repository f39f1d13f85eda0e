// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: a device's raw records (ascend_device.c,
 * ascend_aicpu.c, the collectives of ascend_comm*.c), joined with the
 * sample's host records read once. The input after its selector byte
 * (fuzz_common.h) becomes one slice of device_0/data; the HWTS kinds (chip
 * 1's logs and AI Core PMU records) come with an info.json.0 that says
 * platform_version 1.
 */
#include "fuzz_common.h"

static const struct {
	const char *name;
	bool hwts;
} files[] = {
	{ "device_0/data/stars_soc.data.0.slice_0", false },
	{ "device_0/data/ffts_profile.data.0.slice_0", false },
	{ "device_0/data/ts_track.data.0.slice_0", false },
	{ "device_0/data/aicpu.data.0.slice_0", false },
	{ "device_0/data/stars_soc.data.0.slice_1", false },
	{ "device_0/data/hwts.data.0.slice_0", true },
	{ "device_0/data/aicore.data.0.slice_0", true },
};

static struct npa_host host[2];
static char *info1[2]; /* info.json.0 saying chip 1 */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct npa_warn w = { .quiet = 1 };
	struct npuprof_error err;

	(void)argc;
	(void)argv;
	fuzz_write_seeds(&files[0].name, sizeof(files[0]), NPX_ARRAY_SIZE(files));
	fuzz_setup();
	for (int s = 0; s < 2; s++) {
		char path[PATH_MAX + 32], *p;
		size_t len;

		if (npa_host_load(&host[s], fuzz_prof[s], &w, &err)) {
			fprintf(stderr, "fuzz: %s\n", err.msg);
			exit(2);
		}
		snprintf(path, sizeof(path), "%s/device_0/info.json.0", fuzz_prof[s]);
		if (npx_input_read(path, NPX_CAP_JSON, "JSON file", &info1[s], &len, &err))
			exit(2);
		p = strstr(info1[s], "\"platform_version\": \"5\"");
		if (!p)
			exit(2);
		p[strlen("\"platform_version\": \"")] = '1';
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct npa_warn w = { .quiet = 1 };
	struct npuprof_error err;
	struct npa_dev d;
	unsigned int s, f;

	if (!size)
		return 0;
	s = data[0] & 1;
	f = (data[0] >> 1) % NPX_ARRAY_SIZE(files);
	if (fuzz_put(fuzz_prof[s], files[f].name, data + 1, size - 1))
		abort(); /* the scratch folder is gone: nothing more means anything */
	if (files[f].hwts && fuzz_put(fuzz_prof[s], "device_0/info.json.0",
				      (const uint8_t *)info1[s], strlen(info1[s])))
		abort();
	if (!npa_dev_load(&d, fuzz_prof[s], 0, &host[s], &w, &err))
		npa_comm_build(&d, &host[s], &err);
	npa_dev_free(&d);
	fuzz_restore((int)s, files[f].name);
	if (files[f].hwts)
		fuzz_restore((int)s, "device_0/info.json.0");
	return 0;
}
