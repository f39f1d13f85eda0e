// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the host's raw records (ascend_host.c, ascend_hccl.c,
 * the dictionaries of ascend_raw.c). The input after its selector byte
 * (fuzz_common.h) becomes one slice of host/data in a copy of a sample,
 * then the whole host folder is read as the export reads it.
 */
#include "fuzz_common.h"

static const char *const files[] = {
	"host/data/unaging.api_event.data.slice_0",
	"host/data/unaging.compact.node_basic_info.slice_0",
	"host/data/unaging.compact.task_track.slice_0",
	"host/data/unaging.additional.hash_dic.slice_0",
	"host/data/unaging.additional.type_info_dic.slice_0",
	"host/data/unaging.compact.hccl_op_info.slice_0",
	"host/data/unaging.additional.hccl_info.slice_0",
	"host/data/unaging.additional.tensor_info.slice_0",
	"host/data/unaging.additional.context_id_info.slice_0",
	/* a second slice: records that straddle two files */
	"host/data/unaging.api_event.data.slice_1",
	"host/data/aging.compact.task_track.slice_0",
};

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_write_seeds(files, sizeof(files[0]), NPX_ARRAY_SIZE(files));
	fuzz_setup();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct npa_warn w = { .quiet = 1 };
	struct npuprof_error err;
	struct npa_host h;
	unsigned int s, f;

	if (!size)
		return 0;
	s = data[0] & 1;
	f = (data[0] >> 1) % NPX_ARRAY_SIZE(files);
	if (fuzz_put(fuzz_prof[s], files[f], data + 1, size - 1))
		abort(); /* the scratch folder is gone: nothing more means anything */
	npa_host_load(&h, fuzz_prof[s], &w, &err);
	npa_host_free(&h);
	fuzz_restore((int)s, files[f]);
	return 0;
}
