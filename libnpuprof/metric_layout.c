// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: the PMU metric columns of op_summary.
 *
 * Two layouts (docs/output.md has every header):
 *  - split (VNPU_CAP_SPLIT_AIC_AIV: A2, A3, 350, 200I/500 A2): the A2/A3
 *    layout, aicore_time(us), aic_total_cycles, aic_<group>, aiv_time(us)
 *    (STARS products only), aiv_total_cycles, aiv_<group>, then
 *    cube_utilization(%) for the pipe groups;
 *  - flat (910, 310P): aicore_time(us), total_cycles, <group> unprefixed,
 *    then memory_bound for the pipe groups.
 *
 * A column names the PMU events it needs; they are looked up in the
 * session's event list (ctrl->aic_events / aiv_events: event id -> counter
 * index). A column whose events the session did not program is N/A.
 *
 * Formulas (reference section 1.5), all in integers (thousandths, rounded
 * half up), freq = ctrl->aic_freq_khz, B = blocks, N = cores,
 * waves = ceil(B / N), C = total cycles of the side:
 *   aicore_time(us) = C / freq_MHz / B * waves
 *   X_ratio         = events / C
 *   X_time(us)      = aicore_time * X_ratio = events / freq_MHz / B * waves
 *   icache_miss_rate = 0x55 / 0x54
 *   X_bw(GB/s)      = events * pipe_bits_x_scalar / (C / freq_Hz) / 2^33
 *   cube_fops       = 0x49 * 16*16*16*2 + 0x4a * 16*16*32*2
 *   vector_fops     = 0x4b*32 + 0x4c*128 + 0x4d*64 + 0x4e*64 + 0x4f*32
 *   *_datas(KB)     = counts * 0.125 (GM_to_L1: (0x32 - 0x206) * 0.25)
 *   memory_bound    = mte2 / max(mac, vec)
 *   cube_utilization(%) = aic C / (freq_MHz * aic_num) * 100 / duration_us
 */
#include <errno.h>

#include "npuprof_internal.h"

enum npx_side {
	NPX_AIC = 0,
	NPX_AIV = 1,
	NPX_ALL = 2, /* a column of the whole task */
};

enum npx_mkind {
	MK_TOTAL_TIME, /* aicore_time(us), aiv_time(us) */
	MK_CYCLES, /* *total_cycles */
	MK_RATIO, /* sum(ev) / C */
	MK_TIME, /* sum(ev) as time */
	MK_RATE, /* ev0 / ev1 */
	MK_BW, /* sum(ev) * factor bits per cycle time */
	MK_CUBE_FOPS, /* ev 0x49, 0x4a */
	MK_VEC_FOPS, /* ev 0x4b, 0x4c, 0x4d, 0x4e, 0x4f */
	MK_COUNT, /* sum(ev), an integer */
	MK_KB, /* sum(ev) * factor / 1000 KB */
	MK_KB_DIFF, /* (ev0 - ev1) * factor / 1000 KB */
	MK_MEM_BOUND, /* ev0 / max(ev1 + ev2 (or alt), ev3) */
	MK_CUBE_UTIL, /* aic C / (freq * aic_num * duration) */
};

/**
 * struct npx_mcol - one metric column
 * @name: the header.
 * @side: enum npx_side.
 * @kind: enum npx_mkind.
 * @factor: MK_BW: pipe bits x scalar of one count; MK_KB*: thousandths
 *          of a KB per count.
 * @ev: the event ids (0: unused); summed unless the kind says otherwise.
 * @alt: the event used when none of @ev is programmed (0: none).
 */
struct npx_mcol {
	const char *name;
	uint8_t side;
	uint8_t kind;
	uint16_t factor;
	uint16_t ev[5];
	uint16_t alt;
};

#define MC(n, s, k, f, a, ...)                 \
	{                                      \
		n, s, k, f, { __VA_ARGS__ }, a \
	}
/* time and ratio of one pipe */
#define PIPE(p, n, a, ...)                                                 \
	MC(#p n "_time(us)", NPX_SIDE_OF_##p, MK_TIME, 0, a, __VA_ARGS__), \
		MC(#p n "_ratio", NPX_SIDE_OF_##p, MK_RATIO, 0, a, __VA_ARGS__)
#define RATIO(p, n, ...) MC(#p n, NPX_SIDE_OF_##p, MK_RATIO, 0, 0, __VA_ARGS__)
#define BW(p, n, f, e) MC(#p n "(GB/s)", NPX_SIDE_OF_##p, MK_BW, f, 0, e)
#define COUNT(p, n, e) MC(#p n, NPX_SIDE_OF_##p, MK_COUNT, 0, 0, e)
#define KB(p, n, f, ...) MC(#p n "(KB)", NPX_SIDE_OF_##p, MK_KB, f, 0, __VA_ARGS__)
#define KBD(p, n, f, a, b) MC(#p n "(KB)", NPX_SIDE_OF_##p, MK_KB_DIFF, f, 0, a, b)
/* the prefix is an identifier (aic_, aiv_) or empty (flat): #p names, ## sides */
#define NPX_SIDE_OF_aic_ NPX_AIC
#define NPX_SIDE_OF_aiv_ NPX_AIV
#define NPX_SIDE_OF_ NPX_AIC

#define EV_MAC 0x416, 0x417
#define EV_MAC_ALT 0xa
#define EV_MTE1 0x302
#define EV_MTE1_ALT 0xb
#define CUBE_UTIL MC("cube_utilization(%)", NPX_ALL, MK_CUBE_UTIL, 0, 0, 0)

/* Reference 1.4: A2/A3 PipeUtilization, AIC "PipeUtilizationExct" */
static const struct npx_mcol pu_aic[] = {
	PIPE(aic_, "mac", EV_MAC_ALT, EV_MAC),
	PIPE(aic_, "scalar", 0, 0x9),
	PIPE(aic_, "mte1", EV_MTE1_ALT, EV_MTE1),
	PIPE(aic_, "mte2", 0, 0xc),
	PIPE(aic_, "fixpipe", 0, 0x303),
	MC("aic_icache_miss_rate", NPX_AIC, MK_RATE, 0, 0, 0x55, 0x54),
};

static const struct npx_mcol pu_aiv[] = {
	PIPE(aiv_, "vec", 0, 0x8),
	PIPE(aiv_, "scalar", 0, 0x9),
	PIPE(aiv_, "mte2", 0, 0xc),
	PIPE(aiv_, "mte3", 0, 0xd),
	MC("aiv_icache_miss_rate", NPX_AIV, MK_RATE, 0, 0, 0x55, 0x54),
};

static const struct npx_mcol pu_flat[] = {
	PIPE(, "vec", 0, 0x8),
	PIPE(, "mac", EV_MAC_ALT, EV_MAC),
	PIPE(, "scalar", 0, 0x9),
	PIPE(, "mte1", EV_MTE1_ALT, EV_MTE1),
	PIPE(, "mte2", 0, 0xc),
	PIPE(, "mte3", 0, 0xd),
	MC("icache_miss_rate", NPX_AIC, MK_RATE, 0, 0, 0x55, 0x54),
	MC("memory_bound", NPX_AIC, MK_MEM_BOUND, 0, EV_MAC_ALT, 0xc, EV_MAC, 0x8),
};

static const struct npx_mcol au_aic[] = {
	RATIO(aic_, "mac_fp16_ratio", 0x49),
	RATIO(aic_, "mac_int8_ratio", 0x4a),
	MC("aic_cube_fops", NPX_AIC, MK_CUBE_FOPS, 0, 0, 0x49, 0x4a),
};

static const struct npx_mcol au_aiv[] = {
	RATIO(aiv_, "vec_fp32_ratio", 0x4b),
	RATIO(aiv_, "vec_fp16_ratio", 0x4c, 0x4d),
	RATIO(aiv_, "vec_int32_ratio", 0x4e),
	RATIO(aiv_, "vec_misc_ratio", 0x4f),
	MC("aiv_vector_fops", NPX_AIV, MK_VEC_FOPS, 0, 0, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f),
};

static const struct npx_mcol au_flat[] = {
	RATIO(, "mac_fp16_ratio", 0x49),
	RATIO(, "mac_int8_ratio", 0x4a),
	RATIO(, "vec_fp32_ratio", 0x4b),
	RATIO(, "vec_fp16_ratio", 0x4c, 0x4d),
	RATIO(, "vec_int32_ratio", 0x4e),
	RATIO(, "vec_misc_ratio", 0x4f),
	MC("cube_fops", NPX_AIC, MK_CUBE_FOPS, 0, 0, 0x49, 0x4a),
	MC("vector_fops", NPX_AIC, MK_VEC_FOPS, 0, 0, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f),
};

/* pipe bits x scalar of one count (reference 1.5, the C++ parser) */
#define F_UB 1024
#define F_L1R 4096
#define F_L1W 1024
#define F_MAIN 64
#define F_L2 2048
#define F_L0A 4096
#define F_L0B 2048
#define F_L0C 2048
#define F_L0C_CUBE 8192
#define F_UB_VEC 256
#define F_UB_SCALAR 128

static const struct npx_mcol mem_aic[] = {
	BW(aic_, "l1_read_bw", F_L1R, 0x31),	    BW(aic_, "l1_write_bw", F_L1W, 0x32),
	BW(aic_, "main_mem_read_bw", F_MAIN, 0x12), BW(aic_, "main_mem_write_bw", F_MAIN, 0x13),
	BW(aic_, "l2_read_bw", F_L2, 0xf),	    BW(aic_, "l2_write_bw", F_L2, 0x10),
};

static const struct npx_mcol mem_aiv[] = {
	BW(aiv_, "ub_read_bw", F_UB, 0x15),	    BW(aiv_, "ub_write_bw", F_UB, 0x16),
	BW(aiv_, "main_mem_read_bw", F_MAIN, 0x12), BW(aiv_, "main_mem_write_bw", F_MAIN, 0x13),
	BW(aiv_, "l2_read_bw", F_L2, 0xf),	    BW(aiv_, "l2_write_bw", F_L2, 0x10),
};

static const struct npx_mcol mem_flat[] = {
	BW(, "ub_read_bw", F_UB, 0x15),		BW(, "ub_write_bw", F_UB, 0x16),
	BW(, "l1_read_bw", F_L1R, 0x31),	BW(, "l1_write_bw", F_L1W, 0x32),
	BW(, "l2_read_bw", F_L2, 0xf),		BW(, "l2_write_bw", F_L2, 0x10),
	BW(, "main_mem_read_bw", F_MAIN, 0x12), BW(, "main_mem_write_bw", F_MAIN, 0x13),
};

static const struct npx_mcol l0_aic[] = {
	BW(aic_, "l0a_read_bw", F_L0A, 0x1b),
	BW(aic_, "l0a_write_bw", F_L0A, 0x1c),
	BW(aic_, "l0b_read_bw", F_L0B, 0x21),
	BW(aic_, "l0b_write_bw", F_L0B, 0x22),
	BW(aic_, "l0c_read_bw_cube", F_L0C_CUBE, 0x28),
	BW(aic_, "l0c_write_bw_cube", F_L0C_CUBE, 0x2a),
};

static const struct npx_mcol l0_aiv[] = {
	BW(aiv_, "l0c_read_bw", F_L0C, 0x27),
	BW(aiv_, "l0c_write_bw", F_L0C, 0x29),
};

static const struct npx_mcol l0_flat[] = {
	BW(, "l0a_read_bw", F_L0A, 0x1b),	    BW(, "l0a_write_bw", F_L0A, 0x1c),
	BW(, "l0b_read_bw", F_L0B, 0x21),	    BW(, "l0b_write_bw", F_L0B, 0x22),
	BW(, "l0c_read_bw", F_L0C, 0x27),	    BW(, "l0c_write_bw", F_L0C, 0x29),
	BW(, "l0c_read_bw_cube", F_L0C_CUBE, 0x28), BW(, "l0c_write_bw_cube", F_L0C_CUBE, 0x2a),
};

static const struct npx_mcol ub_aic[] = {
	BW(aic_, "ub_read_bw_scalar", F_UB_SCALAR, 0x37),
	BW(aic_, "ub_write_bw_scalar", F_UB_SCALAR, 0x38),
};

static const struct npx_mcol ub_aiv[] = {
	BW(aiv_, "ub_read_bw_vector", F_UB_VEC, 0x43),
	BW(aiv_, "ub_write_bw_vector", F_UB_VEC, 0x44),
	BW(aiv_, "ub_read_bw_scalar", F_UB_SCALAR, 0x37),
	BW(aiv_, "ub_write_bw_scalar", F_UB_SCALAR, 0x38),
};

static const struct npx_mcol ub_flat[] = {
	BW(, "ub_read_bw_vector", F_UB_VEC, 0x43),
	BW(, "ub_write_bw_vector", F_UB_VEC, 0x44),
	BW(, "ub_read_bw_scalar", F_UB_SCALAR, 0x37),
	BW(, "ub_write_bw_scalar", F_UB_SCALAR, 0x38),
};

static const struct npx_mcol rcr_aiv[] = {
	RATIO(aiv_, "vec_bankgroup_cflt_ratio", 0x64),
	RATIO(aiv_, "vec_bank_cflt_ratio", 0x65),
	RATIO(aiv_, "vec_resc_cflt_ratio", 0x66),
};

static const struct npx_mcol rcr_flat[] = {
	RATIO(, "vec_bankgroup_cflt_ratio", 0x64),
	RATIO(, "vec_bank_cflt_ratio", 0x65),
	RATIO(, "vec_resc_cflt_ratio", 0x66),
};

#define L2C(p)                                                                            \
	COUNT(p, "write_cache_hit", 0x500), COUNT(p, "write_cache_miss_allocate", 0x502), \
		COUNT(p, "r0_read_cache_hit", 0x504),                                     \
		COUNT(p, "r0_read_cache_miss_allocate", 0x506),                           \
		COUNT(p, "r1_read_cache_hit", 0x508),                                     \
		COUNT(p, "r1_read_cache_miss_allocate", 0x50a)

static const struct npx_mcol l2_aic[] = { L2C(aic_) };
static const struct npx_mcol l2_aiv[] = { L2C(aiv_) };
static const struct npx_mcol l2_flat[] = { L2C() };

/* thousandths of a KB per count: 128 B units (0.125), GM->L1 0.25 */
#define MA(p)                                                                                     \
	KB(p, "read_main_memory_datas", 125, 0x50d, 0x50e),                                       \
		KB(p, "write_main_memory_datas", 125, 0x50c),                                     \
		KBD(p, "GM_to_L1_datas", 250, 0x32, 0x206), KB(p, "L0C_to_L1_datas", 125, 0x206), \
		KBD(p, "L0C_to_GM_datas", 125, 0x20c, 0x206), KB(p, "GM_to_UB_datas", 125, 0x3e), \
		KB(p, "UB_to_GM_datas", 125, 0x3d)

static const struct npx_mcol ma_aic[] = { MA(aic_) };
static const struct npx_mcol ma_aiv[] = { MA(aiv_) };
static const struct npx_mcol ma_flat[] = { MA() };

#define EV_EXE_MAC 0x49, 0x4a

static const struct npx_mcol peu_aic[] = {
	PIPE(aic_, "mac_exe", 0, EV_EXE_MAC), PIPE(aic_, "scalar_exe", 0, 0x9),
	PIPE(aic_, "mte1_exe", 0, 0x302),     PIPE(aic_, "mte2_exe", 0, 0xc),
	PIPE(aic_, "mte3_exe", 0, 0xd),	      PIPE(aic_, "fixpipe_exe", 0, 0x303),
};

static const struct npx_mcol peu_aiv[] = {
	PIPE(aiv_, "vec_exe", 0, 0x12c),
	PIPE(aiv_, "scalar_exe", 0, 0x9),
	PIPE(aiv_, "mte2_exe", 0, 0xc),
	PIPE(aiv_, "mte3_exe", 0, 0xd),
};

static const struct npx_mcol peu_flat[] = {
	PIPE(, "vec_exe", 0, 0x12c),
	PIPE(, "mac_exe", 0, EV_EXE_MAC),
	PIPE(, "scalar_exe", 0, 0x9),
	PIPE(, "mte1_exe", 0, 0x302),
	PIPE(, "mte2_exe", 0, 0xc),
	PIPE(, "mte3_exe", 0, 0xd),
	PIPE(, "fixpipe_exe", 0, 0x303),
	MC("memory_bound", NPX_AIC, MK_MEM_BOUND, 0, 0, 0xc, EV_EXE_MAC, 0x12c),
	CUBE_UTIL,
};

static const struct npx_mcol split_tail[] = { CUBE_UTIL };

static const struct npx_mcol head_aic[] = {
	MC("aicore_time(us)", NPX_AIC, MK_TOTAL_TIME, 0, 0, 0),
	MC("aic_total_cycles", NPX_AIC, MK_CYCLES, 0, 0, 0),
};

static const struct npx_mcol head_aiv[] = {
	MC("aiv_time(us)", NPX_AIV, MK_TOTAL_TIME, 0, 0, 0),
	MC("aiv_total_cycles", NPX_AIV, MK_CYCLES, 0, 0, 0),
};

static const struct npx_mcol head_flat[] = {
	MC("aicore_time(us)", NPX_AIC, MK_TOTAL_TIME, 0, 0, 0),
	MC("total_cycles", NPX_AIC, MK_CYCLES, 0, 0, 0),
};

struct npx_cols {
	const struct npx_mcol *c;
	unsigned int n;
};

#define COLS(a)                 \
	{                       \
		a, ARRAY_LEN(a) \
	}
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/**
 * struct npx_group_cols - the columns of one metric group
 * @aic: split layout, AIC side.
 * @aiv: split layout, AIV side.
 * @tail: split layout, after both sides.
 * @flat: flat layout.
 */
struct npx_group_cols {
	struct npx_cols aic, aiv, tail, flat;
};

static const struct npx_group_cols npx_groups[VNPU_METRIC_COUNT] = {
	[VNPU_METRIC_ARITHMETIC_UTILIZATION] = { COLS(au_aic),
						 COLS(au_aiv),
						 { NULL, 0 },
						 COLS(au_flat) },
	[VNPU_METRIC_PIPE_UTILIZATION] = { COLS(pu_aic), COLS(pu_aiv), COLS(split_tail),
					   COLS(pu_flat) },
	[VNPU_METRIC_MEMORY] = { COLS(mem_aic), COLS(mem_aiv), { NULL, 0 }, COLS(mem_flat) },
	[VNPU_METRIC_MEMORY_L0] = { COLS(l0_aic), COLS(l0_aiv), { NULL, 0 }, COLS(l0_flat) },
	[VNPU_METRIC_RESOURCE_CONFLICT_RATIO] = { { NULL, 0 },
						  COLS(rcr_aiv),
						  { NULL, 0 },
						  COLS(rcr_flat) },
	[VNPU_METRIC_MEMORY_UB] = { COLS(ub_aic), COLS(ub_aiv), { NULL, 0 }, COLS(ub_flat) },
	[VNPU_METRIC_L2_CACHE] = { COLS(l2_aic), COLS(l2_aiv), { NULL, 0 }, COLS(l2_flat) },
	[VNPU_METRIC_PIPE_EXECUTE_UTILIZATION] = { COLS(peu_aic), COLS(peu_aiv), COLS(split_tail),
						   COLS(peu_flat) },
	[VNPU_METRIC_MEMORY_ACCESS] = { COLS(ma_aic), COLS(ma_aiv), { NULL, 0 }, COLS(ma_flat) },
};

static void npx_add_cols(struct npx_layout *l, const struct npx_mcol *c, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n && l->n < NPX_MCOL_MAX; i++)
		l->col[l->n++] = &c[i];
}

static int8_t npx_ev_index(const __u32 *events, uint32_t n, uint16_t id)
{
	uint32_t i;

	if (!id)
		return -1;
	for (i = 0; i < n; i++)
		if (events[i] == id)
			return (int8_t)i;
	return -1;
}

static void npx_resolve(const struct npx_mcol *c, const struct vnpu_ring_ctrl *ctrl,
			struct npx_mres *r)
{
	const __u32 *events = c->side == NPX_AIV ? ctrl->aiv_events : ctrl->aic_events;
	uint32_t n = ctrl->n_events;
	bool any = false;
	unsigned int k;

	for (k = 0; k < ARRAY_LEN(c->ev); k++) {
		r->idx[k] = npx_ev_index(events, n, c->ev[k]);
		any |= r->idx[k] >= 0;
	}
	r->alt = npx_ev_index(events, n, c->alt);
	switch (c->kind) {
	case MK_TOTAL_TIME:
	case MK_CYCLES:
	case MK_CUBE_UTIL:
		r->na = false;
		break;
	case MK_RATE:
	case MK_KB_DIFF:
		r->na = r->idx[0] < 0 || r->idx[1] < 0;
		break;
	case MK_MEM_BOUND:
		r->na = r->idx[0] < 0 || r->idx[3] < 0 ||
			(r->idx[1] < 0 && r->idx[2] < 0 && r->alt < 0);
		break;
	default:
		r->na = !any && r->alt < 0;
		break;
	}
}

int npx_layout_init(struct npx_layout *l, const struct vnpu_ring_ctrl *ctrl,
		    struct npuprof_error *err)
{
	const struct npx_group_cols *g;
	unsigned int i;

	memset(l, 0, sizeof(*l));
	l->split = ctrl->caps & VNPU_CAP_SPLIT_AIC_AIV;
	l->stars = ctrl->caps & VNPU_CAP_STARS;
	l->group = ctrl->metric_group;
	l->freq_khz = ctrl->aic_freq_khz;
	l->aic_num = ctrl->aic_num;
	l->aiv_num = ctrl->aiv_num;
	if (l->group == VNPU_METRIC_NONE)
		return 0;
	if (l->group >= VNPU_METRIC_COUNT)
		return npuprof_set_error(err, -EBADMSG, "unknown metric group %u", l->group);
	if (!l->freq_khz)
		return npuprof_set_error(err, -EBADMSG, "aic_freq_khz is 0 with metric group %u",
					 l->group);
	g = &npx_groups[l->group];
	if (l->split) {
		npx_add_cols(l, head_aic, ARRAY_LEN(head_aic));
		npx_add_cols(l, g->aic.c, g->aic.n);
		/* aiv_time(us) is removed on chips without STARS/FFTS */
		npx_add_cols(l, head_aiv + !l->stars, ARRAY_LEN(head_aiv) - !l->stars);
		npx_add_cols(l, g->aiv.c, g->aiv.n);
		npx_add_cols(l, g->tail.c, g->tail.n);
	} else {
		npx_add_cols(l, head_flat, ARRAY_LEN(head_flat));
		npx_add_cols(l, g->flat.c, g->flat.n);
	}
	for (i = 0; i < l->n; i++)
		npx_resolve(l->col[i], ctrl, &l->res[i]);
	return 0;
}

char *npx_layout_header(const struct npx_layout *l, char *p)
{
	unsigned int i;

	for (i = 0; i < l->n; i++) {
		*p++ = ',';
		p = npx_put(p, l->col[i]->name);
	}
	return p;
}

/*
 * Division by a divisor shared by many columns of a row, as a multiply:
 * m = floor((2^64 - 1) / d) underestimates 1/d by less than 2 / 2^64, so
 * for n < 2^64 the estimate floor(n * m / 2^64) is short by at most 2.
 * One real division per divisor instead of one per column.
 */
struct npx_div {
	uint64_t d;
	uint64_t m;
};

static void npx_div_init(struct npx_div *v, uint64_t d)
{
	v->d = d;
	v->m = d ? ~0ULL / d : 0;
}

/* round(n / d), half up; 0 when d is 0 */
static npx_u128 npx_div_by(const struct npx_div *v, npx_u128 n)
{
	uint64_t q, r;

	if (!v->d)
		return 0;
	if (n >> 64)
		return npx_div_round(n, v->d);
	q = (uint64_t)(((npx_u128)(uint64_t)n * v->m) >> 64);
	r = (uint64_t)n - q * v->d;
	while (r >= v->d) {
		q++;
		r -= v->d;
	}
	return q + (r >= v->d - v->d / 2);
}

/**
 * struct npx_sd - one side of a task's PMU data
 * @cyc: total cycles.
 * @blocks: blocks (>= 1).
 * @cores: cores of the type (>= 1).
 * @ev: the counters.
 * @waves: ceil(@blocks / @cores).
 * @by_cyc: division by @cyc (ratios).
 * @by_time: division by freq_khz * @blocks (times).
 */
struct npx_sd {
	uint64_t cyc;
	uint64_t blocks;
	uint64_t cores;
	const __u64 *ev;
	uint64_t waves;
	struct npx_div by_cyc;
	struct npx_div by_time;
};

static uint64_t npx_sum(const struct npx_mres *r, const struct npx_sd *s, unsigned int from,
			unsigned int to)
{
	uint64_t v = 0;
	bool any = false;
	unsigned int k;

	for (k = from; k < to; k++) {
		if (r->idx[k] >= 0) {
			v += s->ev[r->idx[k]];
			any = true;
		}
	}
	if (!any && r->alt >= 0)
		v = s->ev[r->alt];
	return v;
}

static uint64_t npx_ev(const struct npx_mres *r, const struct npx_sd *s, unsigned int k)
{
	return r->idx[k] >= 0 ? s->ev[r->idx[k]] : 0;
}

/* events -> thousandths of a microsecond, as aicore_time */
static npx_u128 npx_time(const struct npx_sd *s, uint64_t events)
{
	return npx_div_by(&s->by_time, (npx_u128)events * 1000000 * s->waves);
}

static char *npx_metric(const struct npx_layout *l, const struct npx_mcol *c,
			const struct npx_mres *r, const struct npx_sd *s,
			const struct npx_mrow *row, char *p)
{
	static const uint8_t vec_w[5] = { 32, 128, 64, 64, 32 };
	npx_u128 v = 0;
	uint64_t a, b;
	unsigned int k;

	switch (c->kind) {
	case MK_TOTAL_TIME:
		v = npx_time(s, s->cyc);
		break;
	case MK_CYCLES:
		return npx_fmt_u64(p, s->cyc);
	case MK_RATIO:
		v = npx_div_by(&s->by_cyc, (npx_u128)npx_sum(r, s, 0, 5) * 1000);
		break;
	case MK_TIME:
		v = npx_time(s, npx_sum(r, s, 0, 5));
		break;
	case MK_RATE:
		v = npx_div_round((npx_u128)npx_ev(r, s, 0) * 1000, npx_ev(r, s, 1));
		break;
	case MK_BW:
		/* events * bits / (C / (freq_khz * 1000)) / 2^33, in thousandths */
		v = npx_div_round((npx_u128)npx_sum(r, s, 0, 5) * c->factor * l->freq_khz * 1000000,
				  (npx_u128)s->cyc << 33);
		break;
	case MK_CUBE_FOPS:
		v = ((npx_u128)npx_ev(r, s, 0) * 16 * 16 * 16 * 2 +
		     (npx_u128)npx_ev(r, s, 1) * 16 * 16 * 32 * 2) *
		    1000;
		break;
	case MK_VEC_FOPS:
		for (k = 0; k < 5; k++)
			v += (npx_u128)npx_ev(r, s, k) * vec_w[k];
		v *= 1000;
		break;
	case MK_COUNT:
		return npx_fmt_u64(p, npx_sum(r, s, 0, 5));
	case MK_KB:
		v = (npx_u128)npx_sum(r, s, 0, 5) * c->factor;
		break;
	case MK_KB_DIFF:
		a = npx_ev(r, s, 0);
		b = npx_ev(r, s, 1);
		v = (npx_u128)(a > b ? a - b : 0) * c->factor;
		break;
	case MK_MEM_BOUND:
		a = npx_sum(r, s, 1, 3);
		b = npx_ev(r, s, 3);
		v = npx_div_round((npx_u128)npx_ev(r, s, 0) * 1000, a > b ? a : b);
		break;
	case MK_CUBE_UTIL:
		v = npx_div_round((npx_u128)row->pmu->aic_total_cycles * 100000000000ULL,
				  (npx_u128)l->freq_khz * (l->aic_num ? l->aic_num : 1) *
					  row->dur_ns);
		break;
	}
	return npx_fmt_milli(p, v);
}

static uint64_t npx_nz(uint64_t a, uint64_t b)
{
	return a ? a : b ? b : 1;
}

char *npx_layout_row(const struct npx_layout *l, const struct npx_mrow *row, char *p)
{
	const struct vnpu_rec_pmu *pmu = row->pmu;
	struct npx_sd sd[2] = { { 0 } };
	unsigned int own, i;
	bool vec_task;

	if (!l->n)
		return p;
	if (!pmu || (pmu->hdr.flags & VNPU_REC_PMU_F_OVERFLOW) ||
	    row->task_type == VNPU_TASK_AI_CPU || row->task_type == VNPU_TASK_COMMUNICATION) {
		for (i = 0; i < l->n; i++) {
			memcpy(p, "," NPX_NA, 4);
			p += 4;
		}
		return p;
	}
	vec_task =
		row->task_type == VNPU_TASK_AI_VECTOR_CORE || row->task_type == VNPU_TASK_MIX_AIV;
	if (!l->split)
		own = 1U << NPX_AIC;
	else if (row->task_type == VNPU_TASK_AI_CORE)
		own = 1U << NPX_AIC;
	else if (row->task_type == VNPU_TASK_AI_VECTOR_CORE)
		own = 1U << NPX_AIV;
	else
		own = 1U << NPX_AIC | 1U << NPX_AIV;

	sd[NPX_AIC].cyc = pmu->aic_total_cycles;
	sd[NPX_AIC].blocks =
		npx_nz(pmu->aic_blocks,
		       row->task_type == VNPU_TASK_MIX_AIV ? row->mix_block_num : row->block_num);
	sd[NPX_AIC].cores =
		npx_nz(!l->split && vec_task && l->aiv_num ? l->aiv_num : l->aic_num, 1);
	sd[NPX_AIC].ev = pmu->aic_events;
	sd[NPX_AIV].cyc = pmu->aiv_total_cycles;
	sd[NPX_AIV].blocks =
		npx_nz(pmu->aiv_blocks,
		       row->task_type == VNPU_TASK_MIX_AIC ? row->mix_block_num : row->block_num);
	sd[NPX_AIV].cores = npx_nz(l->aiv_num, 1);
	sd[NPX_AIV].ev = pmu->aiv_events;
	for (i = 0; i < 2; i++) {
		if (!(own & (1U << i)))
			continue;
		sd[i].waves = (sd[i].blocks + sd[i].cores - 1) / sd[i].cores;
		npx_div_init(&sd[i].by_cyc, sd[i].cyc);
		npx_div_init(&sd[i].by_time, (uint64_t)l->freq_khz * sd[i].blocks);
	}

	for (i = 0; i < l->n; i++) {
		const struct npx_mcol *c = l->col[i];

		*p++ = ',';
		if (c->side != NPX_ALL && !(own & (1U << c->side))) {
			*p++ = '0';
			continue;
		}
		if (l->res[i].na) {
			p = npx_lit(p, NPX_NA);
			continue;
		}
		p = npx_metric(l, c, &l->res[i], &sd[c->side == NPX_AIV ? NPX_AIV : NPX_AIC], row,
			       p);
	}
	return p;
}
