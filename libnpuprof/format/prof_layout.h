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
#ifndef NPF_PROF_LAYOUT_H
#define NPF_PROF_LAYOUT_H

#include <stdint.h>

#define NPF_RAW_DEVICE_PREFIX "device_"
#define NPF_RAW_DEVICE_DIR NPF_RAW_DEVICE_PREFIX "%u" /* the device id */
#define NPF_RAW_DATA_DIR "data" /* device_{id}/data, host/data */
#define NPF_RAW_HOST_DIR "host"
#define NPF_RAW_HOST_DATA NPF_RAW_HOST_DIR "/" NPF_RAW_DATA_DIR

/*
 * The configuration files of host/ and device_{id}/: the device's
 * info.json, start_info and end_info carry ".{id}".
 */
#define NPF_RAW_INFO_JSON "info.json"
#define NPF_RAW_SAMPLE_JSON "sample.json"
#define NPF_RAW_START_INFO "start_info"
#define NPF_RAW_END_INFO "end_info"

/*
 * The kinds of a device's raw files, in data/ as {kind}.data.{id}.slice_{K}.
 */
#define NPF_RAW_STARS_SOC "stars_soc"
#define NPF_RAW_HWTS "hwts"
#define NPF_RAW_FFTS_PROFILE "ffts_profile"
#define NPF_RAW_AICORE "aicore"
#define NPF_RAW_TS_TRACK "ts_track"
#define NPF_RAW_AICPU "aicpu"

/*
 * The kinds of the host's raw files, in host/data/ as
 * {aging|unaging}.{group}{kind}.slice_{K}: the group is "compact.",
 * "additional." or "" (api_event's kind is "api_event.data").
 */
#define NPF_RAW_COMPACT "compact."
#define NPF_RAW_ADDITIONAL "additional."
#define NPF_RAW_API_EVENT "api_event.data"
#define NPF_RAW_NODE_BASIC_INFO "node_basic_info"
#define NPF_RAW_TENSOR_INFO "tensor_info"
#define NPF_RAW_CONTEXT_ID_INFO "context_id_info"
#define NPF_RAW_TASK_TRACK "task_track"
#define NPF_RAW_HCCL_OP_INFO "hccl_op_info"
#define NPF_RAW_HCCL_INFO "hccl_info"
#define NPF_RAW_HASH_DIC "hash_dic"
#define NPF_RAW_TYPE_INFO_DIC "type_info_dic"
#define NPF_RAW_ROTATE_BYTES (64ULL << 20) /* a raw file's slice, at most */
#define NPF_OUTPUT_DIR "mindstudio_profiler_output"
#define NPF_RAW_LOSS_FILE "vnpu_loss.json" /* in host/ and device_{id}/ */

/**
 * enum npf_api_id - the runtime calls host records name (the
 * AscendCL-level API of this stack: aclrtSetDevice, aclrtCreateStream,
 * aclopExecute, aclrtSynchronizeStream, aclrtDestroyStream, aclrtResetDevice)
 */
enum npf_api_id {
	NPF_API_OPEN = 0,
	NPF_API_STREAM_CREATE = 1,
	NPF_API_LAUNCH = 2,
	NPF_API_SYNC = 3,
	NPF_API_STREAM_DESTROY = 4,
	NPF_API_CLOSE = 5,
	NPF_API_COUNT
};

#endif /* NPF_PROF_LAYOUT_H */
