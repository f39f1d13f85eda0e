// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: a device's raw records (ascend_device.c,
 * ascend_aicpu.c, the collectives of ascend_comm*.c), joined with the
 * sample's host records read once. The input after its selector byte
 * (fuzz_common.h) becomes one slice of device_0/data; the HWTS kinds (chip
 * 1's logs and AI Core PMU records) come with an info.json.0 that says
 * platform_version 1, the v6 ones (chip 15's ACSQ logs and PMU records,
 * ascend_device_v6.c) with one that says 15, and their own copy of the
 * host records (a v6 device gives its host tasks their 32-bit ids).
 */
#include "fuzz_common.h"

enum { CHIP_5, CHIP_1, CHIP_15 };

static const struct {
	const char *name;
	int chip;
} files[] = {
	{ "device_0/data/stars_soc.data.0.slice_0", CHIP_5 },
	{ "device_0/data/ffts_profile.data.0.slice_0", CHIP_5 },
	{ "device_0/data/ts_track.data.0.slice_0", CHIP_5 },
	{ "device_0/data/aicpu.data.0.slice_0", CHIP_5 },
	{ "device_0/data/stars_soc.data.0.slice_1", CHIP_5 },
	{ "device_0/data/hwts.data.0.slice_0", CHIP_1 },
	{ "device_0/data/aicore.data.0.slice_0", CHIP_1 },
	{ "device_0/data/stars_soc.data.0.slice_0", CHIP_15 },
	{ "device_0/data/ffts_profile.data.0.slice_0", CHIP_15 },
};

static struct npa_host host[2], host_v6[2];
static char *info[3][2]; /* info.json.0 as it is, saying chip 1, saying chip 15 */

/* @s's info.json.0 with its platform_version "5" made @chip */
static char *info_as(int s, const char *chip)
{
	struct npuprof_error err;
	char path[PATH_MAX + 32], *buf, *p, *out;
	size_t len;

	snprintf(path, sizeof(path), "%s/device_0/info.json.0", fuzz_prof[s]);
	if (npx_input_read(path, NPX_CAP_JSON, "JSON file", &buf, &len, &err))
		exit(2);
	p = strstr(buf, "\"platform_version\": \"5\"");
	out = malloc(len + strlen(chip));
	if (!p || !out)
		exit(2);
	p += strlen("\"platform_version\": \"");
	sprintf(out, "%.*s%s%s", (int)(p - buf), buf, chip, p + 1);
	free(buf);
	return out;
}

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
		if (npa_host_load(&host[s], fuzz_prof[s], &w, &err) ||
		    npa_host_load(&host_v6[s], fuzz_prof[s], &w, &err)) {
			fprintf(stderr, "fuzz: %s\n", err.msg);
			exit(2);
		}
		info[CHIP_1][s] = info_as(s, "1");
		info[CHIP_15][s] = info_as(s, "15");
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct npa_warn w = { .quiet = 1 };
	struct npuprof_error err;
	struct npa_host *h;
	struct npa_dev d;
	unsigned int s, f;

	if (!size)
		return 0;
	s = data[0] & 1;
	f = (data[0] >> 1) % NPX_ARRAY_SIZE(files);
	if (fuzz_put(fuzz_prof[s], files[f].name, data + 1, size - 1))
		abort(); /* the scratch folder is gone: nothing more means anything */
	if (files[f].chip != CHIP_5 &&
	    fuzz_put(fuzz_prof[s], "device_0/info.json.0", (const uint8_t *)info[files[f].chip][s],
		     strlen(info[files[f].chip][s])))
		abort();
	h = files[f].chip == CHIP_15 ? &host_v6[s] : &host[s];
	if (!npa_dev_load(&d, fuzz_prof[s], 0, h, &w, &err))
		npa_comm_build(&d, h, &err);
	npa_dev_free(&d);
	fuzz_restore((int)s, files[f].name);
	if (files[f].chip != CHIP_5)
		fuzz_restore((int)s, "device_0/info.json.0");
	return 0;
}
