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

#define NPUPROF_RAW_DEVICE_DIR "device_%u" /* the device id */
#define NPUPROF_RAW_DATA_DIR "data" /* device_{id}/data, host/data */
#define NPUPROF_RAW_HOST_DIR "host"
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
