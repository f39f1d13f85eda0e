/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof: the raw data of a PROF_* folder, as the collector writes it
 * and npuprof_export() reads it (internal: shared by the runtime, the
 * collector and the exporter; docs/output.md is the full description).
 *
 *   PROF_{6 digits}_{YYYYMMDDhhmmssmmm}_{16 x [A-Z0-9]}/
 *     device_{id}/info.json.{id}     msprof-style device info (JSON)
 *     device_{id}/data/vnpu.ctrl     struct vnpu_ring_ctrl at session start
 *     device_{id}/data/vnpu.rec.NNNN the ring's records, byte for byte
 *     host/data/api.rec.NNNN         struct npuprof_api_rec records
 *     mindstudio_profiler_output/    written by npuprof_export()
 *
 * Record files hold whole records in order; NNNN is 0000, 0001, ...
 * (%04u: five digits from 10000 on); a new file starts before a record
 * that would take the current one over NPUPROF_RAW_ROTATE_BYTES.
 */
#ifndef NPUPROF_RAW_FORMAT_H
#define NPUPROF_RAW_FORMAT_H

#include <stdint.h>

#define NPUPROF_RAW_DEVICE_DIR "device_%u" /* the device id */
#define NPUPROF_RAW_INFO_JSON "info.json.%u" /* in device_{id}/ */
#define NPUPROF_RAW_DATA_DIR "data" /* device_{id}/data, host/data */
#define NPUPROF_RAW_HOST_DIR "host"
#define NPUPROF_RAW_CTRL_FILE "vnpu.ctrl"
#define NPUPROF_RAW_REC_PREFIX "vnpu.rec." /* + %04u */
#define NPUPROF_RAW_API_PREFIX "api.rec." /* + %04u */
#define NPUPROF_RAW_SEQ_FMT "%04u"
#define NPUPROF_RAW_ROTATE_BYTES (64ULL << 20)
#define NPUPROF_OUTPUT_DIR "mindstudio_profiler_output"
#define NPUPROF_RAW_LOSS_FILE "vnpu_loss.json" /* in device_{id}/ of a channel session */

/*
 * struct vnpu_rec_hdr.flags of a VNPU_REC_LOST record the collector
 * appended: its count is of records it drained from the ring but could not
 * write (a full disk, an I/O error). The device's own LOST records have
 * flags 0. The export counts it in seq_missing ("missing from the record
 * files"), not in lost ("lost on the device").
 */
#define NPUPROF_RAW_LOST_F_COLLECTOR 0x80000000U

/* struct npuprof_api_rec.type */
#define NPUPROF_API_REC_TYPE 1

/**
 * struct npuprof_api_rec - one host API call of the runtime
 * @type: NPUPROF_API_REC_TYPE; readers skip other types.
 * @size: bytes of the record, a multiple of 8, >= 32 (records may grow:
 *        readers use the members they know and skip the rest).
 * @api_id: enum npuprof_api_id.
 * @start_ns: CLOCK_MONOTONIC when the call was entered.
 * @end_ns: CLOCK_MONOTONIC when it returned.
 * @tid: the calling thread (gettid()).
 * @reserved: zero.
 */
struct npuprof_api_rec {
	uint16_t type;
	uint16_t size;
	uint32_t api_id;
	uint64_t start_ns;
	uint64_t end_ns;
	uint32_t tid;
	uint32_t reserved;
};

_Static_assert(sizeof(struct npuprof_api_rec) == 32, "npuprof_api_rec is 32 bytes");

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

/* The API name of an enum npuprof_api_id, NULL when unknown. */
static inline const char *npuprof_api_name(uint32_t id)
{
	static const char *const names[NPUPROF_API_COUNT] = {
		[NPUPROF_API_OPEN] = "npuprof_open",
		[NPUPROF_API_STREAM_CREATE] = "npuprof_stream_create",
		[NPUPROF_API_LAUNCH] = "npuprof_launch",
		[NPUPROF_API_SYNC] = "npuprof_sync",
		[NPUPROF_API_STREAM_DESTROY] = "npuprof_stream_destroy",
		[NPUPROF_API_CLOSE] = "npuprof_close",
	};

	return id < NPUPROF_API_COUNT ? names[id] : NULL;
}

#endif /* NPUPROF_RAW_FORMAT_H */
