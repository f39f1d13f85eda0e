// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the configuration files of a PROF folder (JSON and
 * start logs, ascend_config.c, and the loss reports, ascend_loss.c). The
 * input after its selector byte (fuzz_common.h) becomes one file of a
 * copy of a sample, then the reader of that file runs.
 */
#include "fuzz_common.h"

enum reader { HOST, DEV, LOSS_DEV, LOSS_HOST };

static const struct {
	const char *name;
	enum reader reader;
} files[] = {
	{ "host/info.json", HOST },
	{ "host/sample.json", HOST },
	{ "host/start_info", HOST },
	{ "host/end_info", HOST },
	{ "device_0/info.json.0", DEV },
	{ "device_0/sample.json", DEV },
	{ "device_0/start_info.0", DEV },
	{ "device_0/end_info.0", DEV },
	{ "device_0/host_start.log.0", DEV },
	{ "device_0/dev_start.log.0", DEV },
	{ "device_0/" NPF_RAW_LOSS_FILE, LOSS_DEV },
	{ "host/" NPF_RAW_LOSS_FILE, LOSS_HOST },
};

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_write_seeds(&files[0].name, sizeof(files[0]), NPX_ARRAY_SIZE(files));
	fuzz_setup();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct npa_warn w = { .quiet = 1 };
	struct npuprof_error err;
	char dir[PATH_MAX + 16];
	unsigned int s, f;

	if (!size)
		return 0;
	s = data[0] & 1;
	f = (data[0] >> 1) % NPX_ARRAY_SIZE(files);
	if (fuzz_put(fuzz_prof[s], files[f].name, data + 1, size - 1))
		abort(); /* the scratch folder is gone: nothing more means anything */
	switch (files[f].reader) {
	case HOST: {
		struct npa_host_cfg c;

		snprintf(dir, sizeof(dir), "%s/host", fuzz_prof[s]);
		npa_host_cfg_load(dir, &c, &w, &err);
		break;
	}
	case DEV: {
		struct npa_dev_cfg c;

		snprintf(dir, sizeof(dir), "%s/device_0", fuzz_prof[s]);
		npa_dev_cfg_load(dir, 0, &c, &w, &err);
		break;
	}
	case LOSS_DEV:
	case LOSS_HOST: {
		struct npa_loss l;

		snprintf(dir, sizeof(dir), "%s/%s", fuzz_prof[s],
			 files[f].reader == LOSS_DEV ? "device_0" : "host");
		npa_loss_load(dir, &l, &w);
		break;
	}
	}
	fuzz_restore((int)s, files[f].name);
	return 0;
}
