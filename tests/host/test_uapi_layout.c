// SPDX-License-Identifier: GPL-2.0
/*
 * The uapi is what docs/uapi.md says on x86_64: every structure's size and
 * every member's offset and size, no implicit padding (the members tile the
 * structure: each starts where the previous one ends and the last one ends
 * at sizeof), *_SIZE_VER0 == sizeof, structures with 64-bit members are a
 * multiple of 8 bytes, the ioctl numbers, and the enum values and limits.
 *
 * Every expected value is a literal copied from docs/uapi.md, never derived
 * from the header itself, so a change to the header fails here.
 */
#include <stddef.h>

#include "kselftest_harness.h"
#include "vnpu.h"
#include "vnpu_ascend.h"
#include "vnpu_prof.h"

struct member {
	const char *name;
	size_t off, size; /* as compiled */
	size_t want_off, want_size; /* as documented */
};

#define MEMBER(type, m, off, size)                                                     \
	{                                                                              \
#m, offsetof(struct type, m), sizeof(((struct type *)0)->m), off, size \
	}

/*
 * Check @n members of a structure of @size bytes (documented: @want_size):
 * offsets and sizes as documented, and no padding before, between or after
 * them.
 */
static void check_layout(struct __test_metadata *_metadata, const char *type, size_t size,
			 size_t want_size, const struct member *m, size_t n)
{
	size_t end = 0, sum = 0;

	EXPECT_EQ(want_size, size) TH_LOG("sizeof(struct %s)", type);
	for (size_t i = 0; i < n; i++) {
		EXPECT_EQ(m[i].want_off, m[i].off)
		TH_LOG("offsetof(struct %s, %s)", type, m[i].name);
		EXPECT_EQ(m[i].want_size, m[i].size) TH_LOG("sizeof(%s.%s)", type, m[i].name);
		EXPECT_EQ(end, m[i].off) TH_LOG("padding before %s.%s", type, m[i].name);
		end = m[i].off + m[i].size;
		sum += m[i].size;
	}
	EXPECT_EQ(size, end) TH_LOG("tail padding in struct %s", type);
	EXPECT_EQ(size, sum) TH_LOG("struct %s: member sizes do not add up", type);
}

#define CHECK_LAYOUT(type, want_size, members) \
	check_layout(_metadata, #type, sizeof(struct type), want_size, members, ARRAY_SIZE(members))

TEST(vnpu_info)
{
	static const struct member m[] = {
		MEMBER(vnpu_info, size, 0, 4),
		MEMBER(vnpu_info, flags, 4, 4),
		MEMBER(vnpu_info, uapi_version, 8, 4),
		MEMBER(vnpu_info, dev_id, 12, 4),
		MEMBER(vnpu_info, dev_count, 16, 4),
		MEMBER(vnpu_info, product, 20, 4),
		MEMBER(vnpu_info, product_name, 24, 32),
		MEMBER(vnpu_info, chip_name, 56, 32),
		MEMBER(vnpu_info, chip_id, 88, 4),
		MEMBER(vnpu_info, npu_arch, 92, 4),
		MEMBER(vnpu_info, aic_num, 96, 4),
		MEMBER(vnpu_info, aiv_num, 100, 4),
		MEMBER(vnpu_info, aicpu_num, 104, 4),
		MEMBER(vnpu_info, caps, 108, 4),
		MEMBER(vnpu_info, aic_freq_khz, 112, 4),
		MEMBER(vnpu_info, sys_cnt_freq_khz, 116, 4),
		MEMBER(vnpu_info, hbm_bw_mbps, 120, 4),
		MEMBER(vnpu_info, link_bw_mbps, 124, 4),
		MEMBER(vnpu_info, metric_groups, 128, 4),
		MEMBER(vnpu_info, reserved0, 132, 4),
		MEMBER(vnpu_info, cube_flops, 136, 8),
		MEMBER(vnpu_info, vector_flops, 144, 8),
		MEMBER(vnpu_info, reserved, 152, 32),
		MEMBER(vnpu_info, max_streams, 184, 4),
		MEMBER(vnpu_info, max_hw_streams, 188, 4),
		MEMBER(vnpu_info, max_submit, 192, 4),
		MEMBER(vnpu_info, max_pending, 196, 4),
		MEMBER(vnpu_info, ring_default_bytes, 200, 8),
		MEMBER(vnpu_info, ring_max_bytes, 208, 8),
		MEMBER(vnpu_info, max_comms, 216, 4),
		MEMBER(vnpu_info, reserved1, 220, 4),
		MEMBER(vnpu_info, time_base_raw_ns, 224, 8),
	};

	CHECK_LAYOUT(vnpu_info, 232, m);
	EXPECT_EQ(184, VNPU_INFO_SIZE_VER0);
	EXPECT_EQ(224, VNPU_INFO_SIZE_VER1);
	EXPECT_EQ(232, VNPU_INFO_SIZE_VER2);
	EXPECT_EQ(sizeof(struct vnpu_info), VNPU_INFO_SIZE_VER2);
	EXPECT_EQ(0, sizeof(struct vnpu_info) % 8);
}

TEST(vnpu_stream_create)
{
	static const struct member m[] = {
		MEMBER(vnpu_stream_create, size, 0, 4),
		MEMBER(vnpu_stream_create, flags, 4, 4),
		MEMBER(vnpu_stream_create, stream_id, 8, 4),
		MEMBER(vnpu_stream_create, hw_stream_id, 12, 4),
	};

	CHECK_LAYOUT(vnpu_stream_create, 16, m);
	EXPECT_EQ(16, VNPU_STREAM_CREATE_SIZE_VER0);
	EXPECT_EQ(sizeof(struct vnpu_stream_create), VNPU_STREAM_CREATE_SIZE_VER0);
}

TEST(vnpu_comm_init)
{
	static const struct member m[] = {
		MEMBER(vnpu_comm_init, size, 0, 4),	MEMBER(vnpu_comm_init, flags, 4, 4),
		MEMBER(vnpu_comm_init, nranks, 8, 4),	MEMBER(vnpu_comm_init, rank, 12, 4),
		MEMBER(vnpu_comm_init, comm_id, 16, 4), MEMBER(vnpu_comm_init, reserved, 20, 4),
		MEMBER(vnpu_comm_init, key, 24, 32),
	};

	CHECK_LAYOUT(vnpu_comm_init, 56, m);
	EXPECT_EQ(sizeof(struct vnpu_comm_init), VNPU_COMM_INIT_SIZE_VER0);
	EXPECT_EQ(32, VNPU_COMM_KEY_LEN);
	EXPECT_EQ(1, VNPU_COMM_F_CREATE);
}

TEST(vnpu_comm_destroy)
{
	static const struct member m[] = {
		MEMBER(vnpu_comm_destroy, size, 0, 4),
		MEMBER(vnpu_comm_destroy, flags, 4, 4),
		MEMBER(vnpu_comm_destroy, comm_id, 8, 4),
		MEMBER(vnpu_comm_destroy, reserved, 12, 4),
	};

	CHECK_LAYOUT(vnpu_comm_destroy, 16, m);
	EXPECT_EQ(sizeof(struct vnpu_comm_destroy), VNPU_COMM_DESTROY_SIZE_VER0);
}

TEST(vnpu_stream_destroy)
{
	static const struct member m[] = {
		MEMBER(vnpu_stream_destroy, size, 0, 4),
		MEMBER(vnpu_stream_destroy, flags, 4, 4),
		MEMBER(vnpu_stream_destroy, stream_id, 8, 4),
		MEMBER(vnpu_stream_destroy, reserved, 12, 4),
	};

	CHECK_LAYOUT(vnpu_stream_destroy, 16, m);
	EXPECT_EQ(16, VNPU_STREAM_DESTROY_SIZE_VER0);
	EXPECT_EQ(sizeof(struct vnpu_stream_destroy), VNPU_STREAM_DESTROY_SIZE_VER0);
}

TEST(vnpu_tensor)
{
	static const struct member m[] = {
		MEMBER(vnpu_tensor, dtype, 0, 4),  MEMBER(vnpu_tensor, format, 4, 4),
		MEMBER(vnpu_tensor, ndims, 8, 4),  MEMBER(vnpu_tensor, reserved, 12, 4),
		MEMBER(vnpu_tensor, dims, 16, 64),
	};

	CHECK_LAYOUT(vnpu_tensor, 80, m);
	EXPECT_EQ(8, sizeof(((struct vnpu_tensor *)0)->dims[0]));
	EXPECT_EQ(0, sizeof(struct vnpu_tensor) % 8);
}

/*
 * The device's own records: offsets from msprof's struct formats ("4HQHH11L",
 * "4HQ4HQ12Q", "BBHLQHHHH16B"; docs/msprof-parser.md section 1).
 */
TEST(vnpu_acsq_log)
{
	static const struct member m[] = {
		MEMBER(vnpu_acsq_log, word0, 0, 2),	MEMBER(vnpu_acsq_log, magic, 2, 2),
		MEMBER(vnpu_acsq_log, stream_id, 4, 2), MEMBER(vnpu_acsq_log, task_id, 6, 2),
		MEMBER(vnpu_acsq_log, syscnt, 8, 8),	MEMBER(vnpu_acsq_log, reserved0, 16, 2),
		MEMBER(vnpu_acsq_log, acc_acsq, 18, 2), MEMBER(vnpu_acsq_log, reserved, 20, 44),
	};

	CHECK_LAYOUT(vnpu_acsq_log, 64, m);
	EXPECT_EQ(0x6BD3, VNPU_STARS_MAGIC);
	EXPECT_EQ(0x0401 | (3 << 6), VNPU_ACSQ_WORD0(VNPU_FUNC_ACSQ_END, 3, 1));
}

TEST(vnpu_ffts_pmu)
{
	static const struct member m[] = {
		MEMBER(vnpu_ffts_pmu, word0, 0, 2),
		MEMBER(vnpu_ffts_pmu, magic, 2, 2),
		MEMBER(vnpu_ffts_pmu, stream_id, 4, 2),
		MEMBER(vnpu_ffts_pmu, task_id, 6, 2),
		MEMBER(vnpu_ffts_pmu, reserved0, 8, 8),
		MEMBER(vnpu_ffts_pmu, subtask, 16, 2),
		MEMBER(vnpu_ffts_pmu, subtask_id, 18, 2),
		MEMBER(vnpu_ffts_pmu, ffts, 20, 2),
		MEMBER(vnpu_ffts_pmu, reserved1, 22, 2),
		MEMBER(vnpu_ffts_pmu, reserved2, 24, 8),
		MEMBER(vnpu_ffts_pmu, total_cycle, 32, 8),
		MEMBER(vnpu_ffts_pmu, reserved3, 40, 8),
		MEMBER(vnpu_ffts_pmu, pmu, 48, 64),
		MEMBER(vnpu_ffts_pmu, start_syscnt, 112, 8),
		MEMBER(vnpu_ffts_pmu, end_syscnt, 120, 8),
	};

	CHECK_LAYOUT(vnpu_ffts_pmu, 128, m);
	EXPECT_EQ(40, VNPU_FUNC_CONTEXT_PMU);
}

/* the v6 chip's records: "4HQHH3L" and "4HQ2BH2B3HL12Q" (docs/msprof-parser.md section 11) */
TEST(vnpu_acsq_log_v6)
{
	static const struct member m[] = {
		MEMBER(vnpu_acsq_log_v6, word0, 0, 2),
		MEMBER(vnpu_acsq_log_v6, magic, 2, 2),
		MEMBER(vnpu_acsq_log_v6, task_lo, 4, 2),
		MEMBER(vnpu_acsq_log_v6, task_hi, 6, 2),
		MEMBER(vnpu_acsq_log_v6, syscnt, 8, 8),
		MEMBER(vnpu_acsq_log_v6, reserved0, 16, 2),
		MEMBER(vnpu_acsq_log_v6, acc_acsq, 18, 2),
		MEMBER(vnpu_acsq_log_v6, reserved, 20, 12),
	};

	CHECK_LAYOUT(vnpu_acsq_log_v6, 32, m);
}

TEST(vnpu_pmu_v6)
{
	static const struct member m[] = {
		MEMBER(vnpu_pmu_v6, word0, 0, 2),	 MEMBER(vnpu_pmu_v6, magic, 2, 2),
		MEMBER(vnpu_pmu_v6, task_lo, 4, 2),	 MEMBER(vnpu_pmu_v6, task_hi, 6, 2),
		MEMBER(vnpu_pmu_v6, total_cycle, 8, 8),	 MEMBER(vnpu_pmu_v6, ctx_type, 16, 1),
		MEMBER(vnpu_pmu_v6, flags, 17, 1),	 MEMBER(vnpu_pmu_v6, reserved0, 18, 2),
		MEMBER(vnpu_pmu_v6, core_type, 20, 1),	 MEMBER(vnpu_pmu_v6, core_id, 21, 1),
		MEMBER(vnpu_pmu_v6, reserved1, 22, 2),	 MEMBER(vnpu_pmu_v6, sub_block_id, 24, 2),
		MEMBER(vnpu_pmu_v6, block_id, 26, 2),	 MEMBER(vnpu_pmu_v6, reserved2, 28, 4),
		MEMBER(vnpu_pmu_v6, pmu, 32, 80),	 MEMBER(vnpu_pmu_v6, start_syscnt, 112, 8),
		MEMBER(vnpu_pmu_v6, end_syscnt, 120, 8),
	};

	CHECK_LAYOUT(vnpu_pmu_v6, 128, m);
	/* msprof's StarsConstant.PMU_TAG_V6 and FFTS_BLOCK_PMU_TAG */
	EXPECT_EQ(0x2a, VNPU_FUNC_V6_CONTEXT_PMU);
	EXPECT_EQ(0x29, VNPU_FUNC_V6_BLOCK_PMU);
}

/* the HWTS chips' records: "=BBHHHQ12I" and "=BBHHHII10Q8I" (docs/msprof-parser.md section 12) */
TEST(vnpu_hwts_log)
{
	static const struct member m[] = {
		MEMBER(vnpu_hwts_log, word0, 0, 1),	 MEMBER(vnpu_hwts_log, task_type, 1, 1),
		MEMBER(vnpu_hwts_log, reserved0, 2, 2),	 MEMBER(vnpu_hwts_log, reserved1, 4, 2),
		MEMBER(vnpu_hwts_log, task_id, 6, 2),	 MEMBER(vnpu_hwts_log, syscnt, 8, 8),
		MEMBER(vnpu_hwts_log, stream_id, 16, 4), MEMBER(vnpu_hwts_log, reserved, 20, 44),
	};

	CHECK_LAYOUT(vnpu_hwts_log, 64, m);
	EXPECT_EQ(0x51, VNPU_HWTS_WORD0(VNPU_HWTS_LOG_END, 5));
	EXPECT_EQ(0x01, VNPU_HWTS_WORD0(VNPU_HWTS_LOG_END, 16));
	EXPECT_EQ(9, VNPU_HWTS_SDMA);
}

TEST(vnpu_aic_pmu)
{
	static const struct member m[] = {
		MEMBER(vnpu_aic_pmu, word0, 0, 1),	MEMBER(vnpu_aic_pmu, reserved0, 1, 1),
		MEMBER(vnpu_aic_pmu, reserved1, 2, 2),	MEMBER(vnpu_aic_pmu, reserved2, 4, 2),
		MEMBER(vnpu_aic_pmu, task_id, 6, 2),	MEMBER(vnpu_aic_pmu, reserved3, 8, 4),
		MEMBER(vnpu_aic_pmu, reserved4, 12, 4), MEMBER(vnpu_aic_pmu, total_cycle, 16, 8),
		MEMBER(vnpu_aic_pmu, reserved5, 24, 8), MEMBER(vnpu_aic_pmu, pmu, 32, 64),
		MEMBER(vnpu_aic_pmu, stream_id, 96, 4), MEMBER(vnpu_aic_pmu, reserved, 100, 28),
	};

	CHECK_LAYOUT(vnpu_aic_pmu, 128, m);
}

TEST(vnpu_ts_flip)
{
	static const struct member m[] = {
		MEMBER(vnpu_ts_flip, mode, 0, 1),      MEMBER(vnpu_ts_flip, tag, 1, 1),
		MEMBER(vnpu_ts_flip, reserved0, 2, 2), MEMBER(vnpu_ts_flip, reserved1, 4, 4),
		MEMBER(vnpu_ts_flip, syscnt, 8, 8),    MEMBER(vnpu_ts_flip, stream_id, 16, 2),
		MEMBER(vnpu_ts_flip, flip_num, 18, 2), MEMBER(vnpu_ts_flip, reserved2, 20, 2),
		MEMBER(vnpu_ts_flip, task_id, 22, 2),  MEMBER(vnpu_ts_flip, reserved, 24, 16),
	};

	CHECK_LAYOUT(vnpu_ts_flip, 40, m);
	EXPECT_EQ(14, VNPU_TS_TAG_TASK_FLIP);
}

/* the offsets of MsprofAicpuNodeAdditionalData after the 24-byte header */
TEST(vnpu_aicpu_node)
{
	static const struct member m[] = {
		MEMBER(vnpu_aicpu_node, magic, 0, 2),
		MEMBER(vnpu_aicpu_node, level, 2, 2),
		MEMBER(vnpu_aicpu_node, type, 4, 4),
		MEMBER(vnpu_aicpu_node, thread_id, 8, 4),
		MEMBER(vnpu_aicpu_node, data_len, 12, 4),
		MEMBER(vnpu_aicpu_node, timestamp, 16, 8),
		MEMBER(vnpu_aicpu_node, stream_id, 24, 2),
		MEMBER(vnpu_aicpu_node, task_id, 26, 2),
		MEMBER(vnpu_aicpu_node, reserved0, 28, 4),
		MEMBER(vnpu_aicpu_node, run_start_us, 32, 8),
		MEMBER(vnpu_aicpu_node, run_start_tick, 40, 8),
		MEMBER(vnpu_aicpu_node, compute_start_us, 48, 8),
		MEMBER(vnpu_aicpu_node, memcpy_start_us, 56, 8),
		MEMBER(vnpu_aicpu_node, memcpy_end_us, 64, 8),
		MEMBER(vnpu_aicpu_node, run_end_us, 72, 8),
		MEMBER(vnpu_aicpu_node, run_end_tick, 80, 8),
		MEMBER(vnpu_aicpu_node, ai_cpu_thread, 88, 4),
		MEMBER(vnpu_aicpu_node, device_id, 92, 4),
		MEMBER(vnpu_aicpu_node, submit_tick, 96, 8),
		MEMBER(vnpu_aicpu_node, schedule_tick, 104, 8),
		MEMBER(vnpu_aicpu_node, tick_before_run, 112, 8),
		MEMBER(vnpu_aicpu_node, tick_after_run, 120, 8),
		MEMBER(vnpu_aicpu_node, kernel_type, 128, 4),
		MEMBER(vnpu_aicpu_node, dispatch_us, 132, 4),
		MEMBER(vnpu_aicpu_node, total_us, 136, 4),
		MEMBER(vnpu_aicpu_node, ffts_thread_id, 140, 2),
		MEMBER(vnpu_aicpu_node, version, 142, 1),
		MEMBER(vnpu_aicpu_node, reserved1, 143, 9),
		MEMBER(vnpu_aicpu_node, reserved, 152, 104),
	};

	CHECK_LAYOUT(vnpu_aicpu_node, 256, m);
	EXPECT_EQ(0x5A5A, VNPU_AICPU_MAGIC);
	EXPECT_EQ(6000, VNPU_AICPU_LEVEL);
}

TEST(vnpu_prof_start)
{
	static const struct member m[] = {
		MEMBER(vnpu_prof_start, size, 0, 4),
		MEMBER(vnpu_prof_start, flags, 4, 4),
		MEMBER(vnpu_prof_start, level, 8, 4),
		MEMBER(vnpu_prof_start, metric_group, 12, 4),
		MEMBER(vnpu_prof_start, ring_pages, 16, 4),
		MEMBER(vnpu_prof_start, wakeup_bytes, 20, 4),
		MEMBER(vnpu_prof_start, session_id, 24, 4),
		MEMBER(vnpu_prof_start, n_events, 28, 4),
		MEMBER(vnpu_prof_start, aic_events, 32, 32),
		MEMBER(vnpu_prof_start, aiv_events, 64, 32),
		MEMBER(vnpu_prof_start, mmap_size, 96, 8),
		MEMBER(vnpu_prof_start, aic_events_hi, 104, 8),
		MEMBER(vnpu_prof_start, aiv_events_hi, 112, 8),
	};

	CHECK_LAYOUT(vnpu_prof_start, 120, m);
	EXPECT_EQ(120, VNPU_PROF_START_SIZE_VER0);
	EXPECT_EQ(1, VNPU_PROF_F_METRIC_GROUP);
	EXPECT_EQ(2, VNPU_PROF_F_CHANNELS);
}

TEST(vnpu_prof_stop)
{
	static const struct member m[] = {
		MEMBER(vnpu_prof_stop, size, 0, 4),
		MEMBER(vnpu_prof_stop, flags, 4, 4),
		MEMBER(vnpu_prof_stop, reserved, 8, 8),
	};

	CHECK_LAYOUT(vnpu_prof_stop, 16, m);
	EXPECT_EQ(16, VNPU_PROF_STOP_SIZE_VER0);
}

TEST(vnpu_prof_stats)
{
	static const struct member m[] = {
		MEMBER(vnpu_prof_stats, size, 0, 4),
		MEMBER(vnpu_prof_stats, flags, 4, 4),
		MEMBER(vnpu_prof_stats, session_id, 8, 4),
		MEMBER(vnpu_prof_stats, active, 12, 4),
		MEMBER(vnpu_prof_stats, produced, 16, 8),
		MEMBER(vnpu_prof_stats, lost, 24, 8),
		MEMBER(vnpu_prof_stats, written, 32, 8),
		MEMBER(vnpu_prof_stats, bytes, 40, 8),
		MEMBER(vnpu_prof_stats, consumed_pos, 48, 8),
		MEMBER(vnpu_prof_stats, reserved, 56, 16),
	};

	CHECK_LAYOUT(vnpu_prof_stats, 72, m);
	EXPECT_EQ(72, VNPU_PROF_STATS_SIZE_VER0);
}

/* the control page: the fields of the single ring of uapi 0.8 are reserved */
TEST(vnpu_ring_ctrl)
{
	static const struct member m[] = {
		MEMBER(vnpu_ring_ctrl, magic, 0, 8),
		MEMBER(vnpu_ring_ctrl, version, 8, 4),
		MEMBER(vnpu_ring_ctrl, compat_version, 12, 4),
		MEMBER(vnpu_ring_ctrl, hdr_size, 16, 4),
		MEMBER(vnpu_ring_ctrl, page_size, 20, 4),
		MEMBER(vnpu_ring_ctrl, reserved3, 24, 16),
		MEMBER(vnpu_ring_ctrl, cons_offset, 40, 8),
		MEMBER(vnpu_ring_ctrl, reserved4, 48, 8),
		MEMBER(vnpu_ring_ctrl, session_id, 56, 4),
		MEMBER(vnpu_ring_ctrl, dev_id, 60, 4),
		MEMBER(vnpu_ring_ctrl, product, 64, 4),
		MEMBER(vnpu_ring_ctrl, level, 68, 4),
		MEMBER(vnpu_ring_ctrl, metric_group, 72, 4),
		MEMBER(vnpu_ring_ctrl, n_events, 76, 4),
		MEMBER(vnpu_ring_ctrl, caps, 80, 4),
		MEMBER(vnpu_ring_ctrl, aic_num, 84, 4),
		MEMBER(vnpu_ring_ctrl, aiv_num, 88, 4),
		MEMBER(vnpu_ring_ctrl, aic_freq_khz, 92, 4),
		MEMBER(vnpu_ring_ctrl, sys_cnt_freq_khz, 96, 4),
		MEMBER(vnpu_ring_ctrl, reserved1, 100, 4),
		MEMBER(vnpu_ring_ctrl, aic_events, 104, 32),
		MEMBER(vnpu_ring_ctrl, aiv_events, 136, 32),
		MEMBER(vnpu_ring_ctrl, mono_base_ns, 168, 8),
		MEMBER(vnpu_ring_ctrl, start_ticks, 176, 8),
		MEMBER(vnpu_ring_ctrl, start_mono_ns, 184, 8),
		MEMBER(vnpu_ring_ctrl, stopped, 192, 4),
		MEMBER(vnpu_ring_ctrl, reserved0, 196, 4),
		MEMBER(vnpu_ring_ctrl, produced, 200, 8),
		MEMBER(vnpu_ring_ctrl, lost, 208, 8),
		MEMBER(vnpu_ring_ctrl, written, 216, 8),
		MEMBER(vnpu_ring_ctrl, n_channels, 224, 4),
		MEMBER(vnpu_ring_ctrl, chan_offset, 228, 4),
		MEMBER(vnpu_ring_ctrl, raw_base_ns, 232, 8),
		MEMBER(vnpu_ring_ctrl, start_raw_ns, 240, 8),
		MEMBER(vnpu_ring_ctrl, jitter_seed, 248, 8),
		MEMBER(vnpu_ring_ctrl, jitter_permille, 256, 4),
		MEMBER(vnpu_ring_ctrl, jitter_dist, 260, 4),
		MEMBER(vnpu_ring_ctrl, aic_events_hi, 264, 8),
		MEMBER(vnpu_ring_ctrl, aiv_events_hi, 272, 8),
		MEMBER(vnpu_ring_ctrl, reserved, 280, 168),
	};

	CHECK_LAYOUT(vnpu_ring_ctrl, 448, m);
	EXPECT_EQ(0x564e5055524e4731ULL, VNPU_RING_MAGIC);
	EXPECT_EQ(5, VNPU_RING_VERSION);
	EXPECT_EQ(1024, VNPU_RING_CHAN_OFFSET);
	for (int ch = 0; ch < VNPU_CH_COUNT; ch++)
		EXPECT_EQ(64 * (ch + 1), VNPU_RING_CHAN_CONS_OFFSET(ch));
}

TEST(vnpu_ring_chan)
{
	static const struct member m[] = {
		MEMBER(vnpu_ring_chan, type, 0, 4),
		MEMBER(vnpu_ring_chan, rec_size, 4, 4),
		MEMBER(vnpu_ring_chan, data_offset, 8, 8),
		MEMBER(vnpu_ring_chan, data_size, 16, 8),
		MEMBER(vnpu_ring_chan, produced, 24, 8),
		MEMBER(vnpu_ring_chan, lost, 32, 8),
		MEMBER(vnpu_ring_chan, producer_pos, 40, 8),
		MEMBER(vnpu_ring_chan, reserved, 48, 16),
	};

	CHECK_LAYOUT(vnpu_ring_chan, 64, m);
	EXPECT_EQ(0, VNPU_CH_ACSQ);
	EXPECT_EQ(1, VNPU_CH_PMU);
	EXPECT_EQ(2, VNPU_CH_TS_TRACK);
	EXPECT_EQ(3, VNPU_CH_AICPU);
	EXPECT_EQ(4, VNPU_CH_COUNT);
}

TEST(vnpu_task)
{
	static const struct member m[] = {
		MEMBER(vnpu_task, op_name, 0, 64),    MEMBER(vnpu_task, op_type, 64, 32),
		MEMBER(vnpu_task, task_type, 96, 4),  MEMBER(vnpu_task, stream_id, 100, 4),
		MEMBER(vnpu_task, block_num, 104, 4), MEMBER(vnpu_task, mix_block_num, 108, 4),
		MEMBER(vnpu_task, flags, 112, 4),     MEMBER(vnpu_task, model_id, 116, 4),
		MEMBER(vnpu_task, n_inputs, 120, 4),  MEMBER(vnpu_task, n_outputs, 124, 4),
		MEMBER(vnpu_task, comm_op, 128, 4),   MEMBER(vnpu_task, comm_id, 132, 4),
		MEMBER(vnpu_task, comm_tag, 136, 4),  MEMBER(vnpu_task, comm_peer, 140, 4),
		MEMBER(vnpu_task, flops, 144, 8),     MEMBER(vnpu_task, bytes, 152, 8),
		MEMBER(vnpu_task, reserved, 160, 16), MEMBER(vnpu_task, tensors, 176, 640),
	};

	CHECK_LAYOUT(vnpu_task, 816, m);
	EXPECT_EQ(80, sizeof(((struct vnpu_task *)0)->tensors[0]));
	EXPECT_EQ(816, VNPU_TASK_SIZE_VER0);
	EXPECT_EQ(sizeof(struct vnpu_task), VNPU_TASK_SIZE_VER0);
	EXPECT_EQ(0, sizeof(struct vnpu_task) % 8);
}

TEST(vnpu_submit)
{
	static const struct member m[] = {
		MEMBER(vnpu_submit, size, 0, 4),	 MEMBER(vnpu_submit, flags, 4, 4),
		MEMBER(vnpu_submit, tasks, 8, 8),	 MEMBER(vnpu_submit, task_ids, 16, 8),
		MEMBER(vnpu_submit, count, 24, 4),	 MEMBER(vnpu_submit, task_size, 28, 4),
		MEMBER(vnpu_submit, submitted, 32, 4),	 MEMBER(vnpu_submit, reserved, 36, 4),
		MEMBER(vnpu_submit, submit_time, 40, 8),
	};

	CHECK_LAYOUT(vnpu_submit, 48, m);
	EXPECT_EQ(40, VNPU_SUBMIT_SIZE_VER0);
	EXPECT_EQ(48, VNPU_SUBMIT_SIZE_VER1);
	EXPECT_EQ(sizeof(struct vnpu_submit), VNPU_SUBMIT_SIZE_VER1);
	EXPECT_EQ(0, sizeof(struct vnpu_submit) % 8);
}

TEST(vnpu_sync)
{
	static const struct member m[] = {
		MEMBER(vnpu_sync, size, 0, 4),		MEMBER(vnpu_sync, flags, 4, 4),
		MEMBER(vnpu_sync, stream_id, 8, 4),	MEMBER(vnpu_sync, timeout_ms, 12, 4),
		MEMBER(vnpu_sync, last_task_id, 16, 8), MEMBER(vnpu_sync, device_time, 24, 8),
		MEMBER(vnpu_sync, reserved, 32, 8),
	};

	CHECK_LAYOUT(vnpu_sync, 40, m);
	EXPECT_EQ(40, VNPU_SYNC_SIZE_VER0);
	EXPECT_EQ(sizeof(struct vnpu_sync), VNPU_SYNC_SIZE_VER0);
	EXPECT_EQ(0, sizeof(struct vnpu_sync) % 8);
}

/*
 * The 64-bit members are naturally aligned, so the layout is the same for
 * 32-bit (compat) callers, whose __u64 is only 4-byte aligned.
 */
TEST(u64_members_are_8_aligned)
{
	EXPECT_EQ(0, offsetof(struct vnpu_info, cube_flops) % 8);
	EXPECT_EQ(0, offsetof(struct vnpu_info, vector_flops) % 8);
	EXPECT_EQ(0, offsetof(struct vnpu_info, reserved) % 8);
	EXPECT_EQ(0, offsetof(struct vnpu_tensor, dims) % 8);
	EXPECT_EQ(0, offsetof(struct vnpu_task, flops) % 8);
	EXPECT_EQ(0, offsetof(struct vnpu_task, bytes) % 8);
	EXPECT_EQ(0, offsetof(struct vnpu_task, reserved) % 8);
	EXPECT_EQ(0, offsetof(struct vnpu_task, tensors) % 8);
	EXPECT_EQ(0, offsetof(struct vnpu_submit, tasks) % 8);
	EXPECT_EQ(0, offsetof(struct vnpu_submit, task_ids) % 8);
	EXPECT_EQ(0, offsetof(struct vnpu_sync, last_task_id) % 8);
	EXPECT_EQ(0, offsetof(struct vnpu_sync, device_time) % 8);
	EXPECT_EQ(0, offsetof(struct vnpu_sync, reserved) % 8);
}

TEST(ioctl_numbers)
{
	EXPECT_EQ(0xc0e8b800u, (unsigned int)VNPU_IOC_GET_INFO);
	EXPECT_EQ(0xc0b8b800u, (unsigned int)VNPU_IOC_GET_INFO_VER0);
	EXPECT_EQ(0xc0e0b800u, (unsigned int)VNPU_IOC_GET_INFO_VER1);
	EXPECT_EQ(0xc010b801u, (unsigned int)VNPU_IOC_STREAM_CREATE);
	EXPECT_EQ(0xc010b802u, (unsigned int)VNPU_IOC_STREAM_DESTROY);
	EXPECT_EQ(0xc030b803u, (unsigned int)VNPU_IOC_SUBMIT);
	EXPECT_EQ(0xc028b803u, (unsigned int)VNPU_IOC_SUBMIT_VER0);
	EXPECT_EQ(0xc028b804u, (unsigned int)VNPU_IOC_SYNC);
	EXPECT_EQ(0xc038b805u, (unsigned int)VNPU_IOC_COMM_INIT);
	EXPECT_EQ(0xc010b806u, (unsigned int)VNPU_IOC_COMM_DESTROY);
	EXPECT_EQ(0xB8, VNPU_IOC_MAGIC);
	EXPECT_EQ(0, VNPU_IOC_NR_GET_INFO);
	EXPECT_EQ(1, VNPU_IOC_NR_STREAM_CREATE);
	EXPECT_EQ(2, VNPU_IOC_NR_STREAM_DESTROY);
	EXPECT_EQ(3, VNPU_IOC_NR_SUBMIT);
	EXPECT_EQ(4, VNPU_IOC_NR_SYNC);
}

TEST(version_and_limits)
{
	EXPECT_EQ(0, VNPU_UAPI_VERSION_MAJOR);
	EXPECT_EQ(11, VNPU_UAPI_VERSION_MINOR);
	EXPECT_EQ(0x0000000b, VNPU_UAPI_VERSION);
	EXPECT_EQ(16, VNPU_MAX_DEVICES);
	EXPECT_EQ(2048, VNPU_MAX_HW_STREAMS);
	EXPECT_EQ(64, VNPU_OP_NAME_LEN);
	EXPECT_EQ(32, VNPU_OP_TYPE_LEN);
	EXPECT_EQ(32, VNPU_NAME_LEN);
	EXPECT_EQ(8, VNPU_MAX_TENSORS);
	EXPECT_EQ(8, VNPU_MAX_DIMS);
	EXPECT_EQ(1125899906842624ull, VNPU_TASK_MAX_FLOPS);
	EXPECT_EQ(1099511627776ull, VNPU_TASK_MAX_BYTES);
}

TEST(enum_values)
{
	EXPECT_EQ(0, VNPU_PRODUCT_A2);
	EXPECT_EQ(1, VNPU_PRODUCT_A3);
	EXPECT_EQ(2, VNPU_PRODUCT_350);
	EXPECT_EQ(3, VNPU_PRODUCT_910);
	EXPECT_EQ(4, VNPU_PRODUCT_200I_A2);
	EXPECT_EQ(5, VNPU_PRODUCT_310P);
	EXPECT_EQ(6, VNPU_PRODUCT_COUNT);

	EXPECT_EQ(0x1, VNPU_CAP_SPLIT_AIC_AIV);
	EXPECT_EQ(0x2, VNPU_CAP_SCOPED_PROFILING);
	EXPECT_EQ(0x4, VNPU_CAP_STARS);

	EXPECT_EQ(0, VNPU_METRIC_ARITHMETIC_UTILIZATION);
	EXPECT_EQ(1, VNPU_METRIC_PIPE_UTILIZATION);
	EXPECT_EQ(2, VNPU_METRIC_MEMORY);
	EXPECT_EQ(3, VNPU_METRIC_MEMORY_L0);
	EXPECT_EQ(4, VNPU_METRIC_RESOURCE_CONFLICT_RATIO);
	EXPECT_EQ(5, VNPU_METRIC_MEMORY_UB);
	EXPECT_EQ(6, VNPU_METRIC_L2_CACHE);
	EXPECT_EQ(7, VNPU_METRIC_PIPE_EXECUTE_UTILIZATION);
	EXPECT_EQ(8, VNPU_METRIC_MEMORY_ACCESS);
	EXPECT_EQ(9, VNPU_METRIC_COUNT);
	EXPECT_EQ(0xff, VNPU_METRIC_NONE);

	EXPECT_EQ(0, VNPU_TASK_AI_CORE);
	EXPECT_EQ(1, VNPU_TASK_AI_VECTOR_CORE);
	EXPECT_EQ(2, VNPU_TASK_MIX_AIC);
	EXPECT_EQ(3, VNPU_TASK_MIX_AIV);
	EXPECT_EQ(4, VNPU_TASK_AI_CPU);
	EXPECT_EQ(5, VNPU_TASK_COMMUNICATION);
	EXPECT_EQ(6, VNPU_TASK_TYPE_COUNT);

	EXPECT_EQ(0, VNPU_DT_FLOAT);
	EXPECT_EQ(1, VNPU_DT_FLOAT16);
	EXPECT_EQ(2, VNPU_DT_INT8);
	EXPECT_EQ(3, VNPU_DT_INT32);
	EXPECT_EQ(4, VNPU_DT_UINT8);
	EXPECT_EQ(5, VNPU_DT_INT16);
	EXPECT_EQ(6, VNPU_DT_INT64);
	EXPECT_EQ(7, VNPU_DT_BF16);
	EXPECT_EQ(8, VNPU_DT_BOOL);
	EXPECT_EQ(9, VNPU_DT_COUNT);

	EXPECT_EQ(0, VNPU_FMT_ND);
	EXPECT_EQ(1, VNPU_FMT_NCHW);
	EXPECT_EQ(2, VNPU_FMT_NHWC);
	EXPECT_EQ(3, VNPU_FMT_NC1HWC0);
	EXPECT_EQ(4, VNPU_FMT_FRACTAL_NZ);
	EXPECT_EQ(5, VNPU_FMT_FRACTAL_Z);
	EXPECT_EQ(6, VNPU_FMT_COUNT);

	EXPECT_EQ(0, VNPU_COMM_ALLREDUCE);
	EXPECT_EQ(1, VNPU_COMM_ALLGATHER);
	EXPECT_EQ(2, VNPU_COMM_REDUCESCATTER);
	EXPECT_EQ(3, VNPU_COMM_BROADCAST);
	EXPECT_EQ(6, VNPU_COMM_OP_COUNT);

	EXPECT_EQ(0x1, VNPU_TASK_F_HF32);
	EXPECT_EQ(0x2, VNPU_TASK_F_DYNAMIC);
	EXPECT_EQ(0x3, VNPU_TASK_F_ALL);
	EXPECT_EQ(0x1, VNPU_SYNC_F_ALL_STREAMS);
	EXPECT_EQ(0x2, VNPU_SYNC_F_NOWAIT);
	EXPECT_EQ(0x3, VNPU_SYNC_F_ALL);
}

/* Element sizes: one table, used by the kernel and libnpuprof alike. */
TEST(dtype_sizes)
{
	static const unsigned char size[VNPU_DT_COUNT] = VNPU_DTYPE_SIZES;
	static const unsigned char want[VNPU_DT_COUNT] = { 4, 2, 1, 4, 1, 2, 8, 2, 1 };

	for (int i = 0; i < VNPU_DT_COUNT; i++) {
		EXPECT_EQ(want[i], size[i])
		TH_LOG("dtype %d", i);
	}
}

TEST_HARNESS_MAIN
