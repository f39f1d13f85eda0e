/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof: the names of a PROF_* folder's parts, as the collector makes
 * them and npuprof_export() finds them (internal: shared by the runtime,
 * the collector, the exporter and the tests; docs/output.md describes the
 * whole layout and every file in it), and the runtime calls its host
 * records name.
 *
 *   PROF_{6 digits}_{YYYYMMDDhhmmssmmm}_{16 x [A-Z0-9]}/
 *     host/          info.json, sample.json, start_info, ...; data/ CANN's
 *                    host records (api_event, node_basic_info, ...)
 *     device_{id}/   info.json.{id}, sample.json, ...; data/ the device's
 *                    records (stars_soc.data.{id}.slice_K, ...)
 *     mindstudio_profiler_output/    written by npuprof_export()
 */
#ifndef NPUPROF_PROF_LAYOUT_H
#define NPUPROF_PROF_LAYOUT_H

#include <stdint.h>

#define NPUPROF_RAW_DEVICE_PREFIX "device_"
#define NPUPROF_RAW_DEVICE_DIR NPUPROF_RAW_DEVICE_PREFIX "%u" /* the device id */
#define NPUPROF_RAW_DATA_DIR "data" /* device_{id}/data, host/data */
#define NPUPROF_RAW_HOST_DIR "host"
#define NPUPROF_RAW_HOST_DATA NPUPROF_RAW_HOST_DIR "/" NPUPROF_RAW_DATA_DIR

/*
 * The configuration files of host/ and device_{id}/: the device's
 * info.json, start_info and end_info carry ".{id}".
 */
#define NPUPROF_RAW_INFO_JSON "info.json"
#define NPUPROF_RAW_SAMPLE_JSON "sample.json"
#define NPUPROF_RAW_START_INFO "start_info"
#define NPUPROF_RAW_END_INFO "end_info"

/*
 * The kinds of a device's raw files, in data/ as
 * {chip prefix}{kind}.data.{id}.slice_{K} (npf_chip_file_prefix()).
 */
#define NPUPROF_RAW_STARS_SOC "stars_soc"
#define NPUPROF_RAW_HWTS "hwts"
#define NPUPROF_RAW_FFTS_PROFILE "ffts_profile"
#define NPUPROF_RAW_AICORE "aicore"
#define NPUPROF_RAW_TS_TRACK "ts_track"
#define NPUPROF_RAW_AICPU "aicpu"

/*
 * The kinds of the host's raw files, in host/data/ as
 * {aging|unaging}.{group}{kind}.slice_{K}: the group is "compact.",
 * "additional." or "" (api_event's kind is "api_event.data").
 */
#define NPUPROF_RAW_COMPACT "compact."
#define NPUPROF_RAW_ADDITIONAL "additional."
#define NPUPROF_RAW_API_EVENT "api_event.data"
#define NPUPROF_RAW_NODE_BASIC_INFO "node_basic_info"
#define NPUPROF_RAW_TENSOR_INFO "tensor_info"
#define NPUPROF_RAW_CONTEXT_ID_INFO "context_id_info"
#define NPUPROF_RAW_TASK_TRACK "task_track"
#define NPUPROF_RAW_HCCL_OP_INFO "hccl_op_info"
#define NPUPROF_RAW_HCCL_INFO "hccl_info"
#define NPUPROF_RAW_HASH_DIC "hash_dic"
#define NPUPROF_RAW_TYPE_INFO_DIC "type_info_dic"
#define NPUPROF_RAW_ROTATE_BYTES (64ULL << 20) /* a raw file's slice, at most */
#define NPUPROF_OUTPUT_DIR "mindstudio_profiler_output"
#define NPUPROF_RAW_LOSS_FILE "vnpu_loss.json" /* in host/ and device_{id}/ */

/**
 * enum npuprof_api_id - the runtime calls host records name (the
 * AscendCL-level API of this stack: aclrtSetDevice, aclrtCreateStream,
 * aclopExecute, aclrtSynchronizeStream, aclrtDestroyStream, aclrtResetDevice)
 */
enum npuprof_api_id {
	NPUPROF_API_OPEN = 0,
	NPUPROF_API_STREAM_CREATE = 1,
	NPUPROF_API_LAUNCH = 2,
	NPUPROF_API_SYNC = 3,
	NPUPROF_API_STREAM_DESTROY = 4,
	NPUPROF_API_CLOSE = 5,
	NPUPROF_API_COUNT
};

#endif /* NPUPROF_PROF_LAYOUT_H */
