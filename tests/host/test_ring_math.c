// SPDX-License-Identifier: GPL-2.0
/*
 * The ring arithmetic of kmod/vnpu_ring_math.h, as docs/ring.md states it:
 * record size rounding, offsets, used/fits on empty, full and exactly-full
 * rings, the room kept for the final LOST record, the wrap of the data area
 * and of the u64 positions around 2^64, and cons_valid for consumer
 * positions behind, equal, ahead, far ahead and ~0, with the last seen one
 * near 2^64.
 *
 * Then a simulation: the producer of kmod/vnpu_ring.c (reserve with the
 * pending LOST record first, publish, stop), written here over the same
 * helpers, against a consumer that reads, stalls, rewinds and writes garbage
 * positions, through small rings whose positions start at 0, below 2^63 and
 * near 2^64. It checks produced == consumed + lost, contiguous seq, every
 * record read back as written, and, through a shadow of the data area, that
 * the producer never overwrites a byte the kernel has not seen consumed.
 */
#include <stdint.h>
#include <string.h>

#include "kselftest_harness.h"
#include "vnpu_prof.h"
#include "vnpu_ring_math.h"

#define LOST_SIZE ((__u32)sizeof(struct vnpu_rec_lost))
#define HDR_SIZE ((__u32)sizeof(struct vnpu_rec_hdr))
#define U64_TOP (~0ULL) /* 2^64 - 1 */

/* ---- the pure functions ---- */

TEST(rec_size_rounds_up_to_8)
{
	static const __u32 cases[][2] = {
		{ 0, 0 },     { 1, 8 },	    { 7, 8 },	  { 8, 8 },	{ 9, 16 },
		{ 16, 16 },   { 17, 24 },   { 24, 24 },	  { 40, 40 },	{ 41, 48 },
		{ 168, 168 }, { 169, 176 }, { 744, 744 }, { 745, 752 }, { 65535, 65536 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		EXPECT_EQ(cases[i][1], vnpu_ring_rec_size(cases[i][0]))
		TH_LOG("rec_size(%u)", cases[i][0]);
	}
	/* every size a u16 header can carry: the next multiple of 8 */
	for (__u32 b = 0; b <= 0xffff; b++) {
		__u32 r = vnpu_ring_rec_size(b);

		ASSERT_EQ(0, r % 8) TH_LOG("rec_size(%u) = %u", b, r);
		ASSERT_GE(r, b);
		ASSERT_LT(r - b, 8);
	}
	/* the record structures are sized to need no padding */
	EXPECT_EQ(24, vnpu_ring_rec_size(sizeof(struct vnpu_rec_lost)));
	EXPECT_EQ(40, vnpu_ring_rec_size(sizeof(struct vnpu_rec_task)));
	EXPECT_EQ(168, vnpu_ring_rec_size(sizeof(struct vnpu_rec_op_info)));
	EXPECT_EQ(184, vnpu_ring_rec_size(sizeof(struct vnpu_rec_pmu)));
	EXPECT_EQ(128, vnpu_ring_rec_size(sizeof(struct vnpu_rec_comm)));
	EXPECT_EQ(48, vnpu_ring_rec_size(sizeof(struct vnpu_rec_runtime)));
	EXPECT_EQ(136, vnpu_ring_rec_size(sizeof(struct vnpu_rec_aicpu)));
}

TEST(offset_masks_the_position)
{
	EXPECT_EQ(0, vnpu_ring_offset(0, 4096));
	EXPECT_EQ(4095, vnpu_ring_offset(4095, 4096));
	EXPECT_EQ(0, vnpu_ring_offset(4096, 4096));
	EXPECT_EQ(5, vnpu_ring_offset(3 * 4096 + 5, 4096));
	EXPECT_EQ(4095, vnpu_ring_offset(U64_TOP, 4096));
	EXPECT_EQ(0, vnpu_ring_offset(1ULL << 63, 4096));
	EXPECT_EQ(4088, vnpu_ring_offset(U64_TOP - 7, 4096));
	/* the largest ring, 8192 pages */
	EXPECT_EQ((1ULL << 25) - 1, vnpu_ring_offset(U64_TOP, 8192ULL * 4096));
	EXPECT_EQ(12345, vnpu_ring_offset((7ULL << 25) + 12345, 8192ULL * 4096));
}

/* 2^64 is a multiple of every ring size: offsets run on across the wrap. */
TEST(offset_is_continuous_across_2_64)
{
	static const __u64 sizes[] = { 8, 256, 4096, 1ULL << 25 };

	for (size_t k = 0; k < ARRAY_SIZE(sizes); k++) {
		__u64 size = sizes[k], pos = U64_TOP - 300;

		for (int i = 0; i < 600; i++, pos++) {
			ASSERT_EQ((vnpu_ring_offset(pos, size) + 1) % size,
				  vnpu_ring_offset(pos + 1, size))
			TH_LOG("size %llu pos %#llx", (unsigned long long)size,
			       (unsigned long long)pos);
		}
	}
}

TEST(used_is_wrap_safe)
{
	EXPECT_EQ(0, vnpu_ring_used(0, 0));
	EXPECT_EQ(95, vnpu_ring_used(5, 100));
	EXPECT_EQ(0, vnpu_ring_used(U64_TOP, U64_TOP));
	/* the producer has wrapped past 2^64, the consumer not yet */
	EXPECT_EQ(32, vnpu_ring_used(U64_TOP - 15, 16));
	EXPECT_EQ(1, vnpu_ring_used(U64_TOP, 0));
	EXPECT_EQ(4096, vnpu_ring_used((1ULL << 63) - 2048, (1ULL << 63) + 2048));
}

TEST(fits_on_an_empty_ring)
{
	static const __u64 at[] = { 0, 4096, 1ULL << 63, U64_TOP - 4, U64_TOP };

	for (size_t i = 0; i < ARRAY_SIZE(at); i++) {
		__u64 p = at[i];

		/* with the LOST reserve */
		EXPECT_TRUE(vnpu_ring_fits(4096, p, p, 4096 - LOST_SIZE, LOST_SIZE));
		EXPECT_FALSE(vnpu_ring_fits(4096, p, p, 4096 - LOST_SIZE + 8, LOST_SIZE));
		/* without */
		EXPECT_TRUE(vnpu_ring_fits(4096, p, p, 4096, 0));
		EXPECT_FALSE(vnpu_ring_fits(4096, p, p, 4097, 0));
		EXPECT_TRUE(vnpu_ring_fits(4096, p, p, 0, 0));
	}
}

TEST(fits_on_a_full_ring)
{
	/* used == size, positions across 2^64 */
	__u64 cons = U64_TOP - 1000, prod = cons + 4096;

	EXPECT_EQ(4096, vnpu_ring_used(cons, prod));
	EXPECT_FALSE(vnpu_ring_fits(4096, cons, prod, 8, 0));
	EXPECT_FALSE(vnpu_ring_fits(4096, cons, prod, 0, LOST_SIZE));
	EXPECT_TRUE(vnpu_ring_fits(4096, cons, prod, 0, 0)) TH_LOG("nothing fits in nothing");
	/* one byte short of full */
	EXPECT_TRUE(vnpu_ring_fits(4096, cons, prod - 1, 1, 0));
	EXPECT_FALSE(vnpu_ring_fits(4096, cons, prod - 1, 2, 0));
}

/* A record that takes the last free byte fits; one byte more does not. */
TEST(fits_exactly)
{
	static const __u64 at[] = { 0, 1ULL << 63, U64_TOP - 500 };

	for (size_t i = 0; i < ARRAY_SIZE(at); i++) {
		__u64 cons = at[i], prod = cons + 1000; /* 3096 free */

		EXPECT_TRUE(vnpu_ring_fits(4096, cons, prod, 3096, 0));
		EXPECT_FALSE(vnpu_ring_fits(4096, cons, prod, 3097, 0));
		EXPECT_TRUE(vnpu_ring_fits(4096, cons, prod, 3096 - LOST_SIZE, LOST_SIZE));
		EXPECT_FALSE(vnpu_ring_fits(4096, cons, prod, 3096 - LOST_SIZE + 1, LOST_SIZE));
		/* the pending LOST record and the record, with the reserve kept */
		EXPECT_TRUE(vnpu_ring_fits(4096, cons, prod, LOST_SIZE + 3048, LOST_SIZE));
		EXPECT_FALSE(vnpu_ring_fits(4096, cons, prod, LOST_SIZE + 3056, LOST_SIZE));
	}
}

/* A "used" above the size (a corrupt position) never leaves room. */
TEST(fits_refuses_more_used_than_the_size)
{
	__u64 prod = 10000;

	EXPECT_FALSE(vnpu_ring_fits(4096, prod - 4097, prod, 0, 0));
	EXPECT_FALSE(vnpu_ring_fits(4096, prod - 8192, prod, 8, 0));
	/* a consumer ahead of the producer: used wraps to almost 2^64 */
	EXPECT_FALSE(vnpu_ring_fits(4096, prod + 8, prod, 8, 0));
	EXPECT_FALSE(vnpu_ring_fits(4096, U64_TOP, 0 + 4096 + 2, 0, 0));
}

/* seen near 2^64, prod past it: the window [seen, prod] crosses 0. */
TEST(cons_valid_across_2_64)
{
	__u64 seen = U64_TOP - 31, prod = seen + 64; /* prod == 32 */

	EXPECT_EQ(32, prod);
	EXPECT_TRUE(vnpu_ring_cons_valid(seen, seen, prod)) TH_LOG("equal");
	EXPECT_TRUE(vnpu_ring_cons_valid(seen, prod, prod)) TH_LOG("all consumed");
	EXPECT_TRUE(vnpu_ring_cons_valid(seen, seen + 8, prod));
	EXPECT_TRUE(vnpu_ring_cons_valid(seen, 0, prod)) TH_LOG("across 2^64");
	EXPECT_TRUE(vnpu_ring_cons_valid(seen, U64_TOP, prod)) TH_LOG("~0 inside the window");
	EXPECT_FALSE(vnpu_ring_cons_valid(seen, seen - 1, prod)) TH_LOG("behind");
	EXPECT_FALSE(vnpu_ring_cons_valid(seen, seen - 4096, prod));
	EXPECT_FALSE(vnpu_ring_cons_valid(seen, prod + 1, prod)) TH_LOG("ahead");
	EXPECT_FALSE(vnpu_ring_cons_valid(seen, prod + 8, prod));
	EXPECT_FALSE(vnpu_ring_cons_valid(seen, prod + 4096, prod)) TH_LOG("far ahead");
	EXPECT_FALSE(vnpu_ring_cons_valid(seen, seen + (1ULL << 63), prod));
	EXPECT_FALSE(vnpu_ring_cons_valid(seen, seen - (1ULL << 63), prod));
}

/* seen and prod both below 2^64: ~0 is ahead of the producer. */
TEST(cons_valid_below_2_64)
{
	__u64 seen = U64_TOP - 31, prod = U64_TOP - 15;

	EXPECT_TRUE(vnpu_ring_cons_valid(seen, seen, prod));
	EXPECT_TRUE(vnpu_ring_cons_valid(seen, prod, prod));
	EXPECT_TRUE(vnpu_ring_cons_valid(seen, prod - 8, prod));
	EXPECT_FALSE(vnpu_ring_cons_valid(seen, U64_TOP, prod)) TH_LOG("~0 ahead");
	EXPECT_FALSE(vnpu_ring_cons_valid(seen, 0, prod)) TH_LOG("0 far ahead");
	EXPECT_FALSE(vnpu_ring_cons_valid(seen, seen - 8, prod));
	/* nothing unread: only the same position is valid */
	EXPECT_TRUE(vnpu_ring_cons_valid(prod, prod, prod));
	EXPECT_FALSE(vnpu_ring_cons_valid(prod, prod + 1, prod));
	EXPECT_FALSE(vnpu_ring_cons_valid(prod, prod - 1, prod));
	/* a fresh session: positions at 0 */
	EXPECT_TRUE(vnpu_ring_cons_valid(0, 0, 0));
	EXPECT_FALSE(vnpu_ring_cons_valid(0, U64_TOP, 0)) TH_LOG("~0 is behind 0");
	EXPECT_FALSE(vnpu_ring_cons_valid(0, 1ULL << 63, 40));
	EXPECT_TRUE(vnpu_ring_cons_valid(0, 40, 40));
}

/* ---- the producer of kmod/vnpu_ring.c over these helpers, and a consumer ---- */

#define SIM_MAX_DATA 4096
#define NEVER 0 /* shadow: no byte written here yet */

struct sim {
	__u64 size; /* data bytes, a power of two */
	__u64 base; /* the first position */
	/* the kernel's side (struct vnpu_ring) */
	__u64 prod, pub, seen, seq, produced, lost, lost_pending, written;
	/* the data area, twice: the double mapping */
	unsigned char data[2 * SIM_MAX_DATA];
	/* per offset: 1 + the logical position (from base) of the byte there */
	__u64 shadow[SIM_MAX_DATA];
	__u64 shared_cons; /* the consumer page */
	/* the consumer's side */
	__u64 cons, rseq, rrecords, rlost, rwritten;
	__u64 rng;
	int bad; /* first inconsistency: a line of this file */
};

#define SIM_BAD(s)                           \
	do {                                 \
		if (!(s)->bad)               \
			(s)->bad = __LINE__; \
	} while (0)

static void sim_init(struct sim *s, __u64 size, __u64 base, __u64 seed)
{
	memset(s, 0, sizeof(*s));
	s->size = size;
	s->base = base;
	s->prod = s->pub = s->seen = s->shared_cons = s->cons = base;
	s->rng = seed;
}

static __u64 sim_rand(struct sim *s)
{
	/* splitmix64 */
	__u64 z = (s->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned char sim_pattern(__u64 seq, __u32 i)
{
	return (unsigned char)(seq * 131 + i * 7 + 1);
}

/* vnpu_ring_consumer(): one read of the shared position, validated. */
static __u64 sim_consumer(struct sim *s)
{
	__u64 cons = s->shared_cons;

	if (vnpu_ring_cons_valid(s->seen, cons, s->prod))
		s->seen = cons;
	return s->seen;
}

/* Write @size bytes at the producer position, as the double mapping does. */
static void sim_write(struct sim *s, const unsigned char *rec, __u32 size)
{
	__u64 seen_l = s->seen - s->base;

	for (__u32 i = 0; i < size; i++) {
		__u64 pos = s->prod + i, off = vnpu_ring_offset(pos, s->size);
		__u64 old = s->shadow[off];

		/* the byte there must be one the kernel saw consumed */
		if (old != NEVER && old - 1 >= seen_l)
			SIM_BAD(s);
		s->shadow[off] = pos - s->base + 1;
		s->data[off] = rec[i];
		s->data[off + s->size] = rec[i];
	}
}

/* vnpu_ring_put() */
static void sim_put(struct sim *s, __u16 type, __u32 size, __u64 lost)
{
	unsigned char rec[1024];
	struct vnpu_rec_hdr h = { .type = type, .size = (__u16)size, .seq = s->seq };

	memcpy(rec, &h, sizeof(h));
	if (type == VNPU_REC_LOST)
		memcpy(rec + HDR_SIZE, &lost, sizeof(lost));
	else
		for (__u32 i = HDR_SIZE; i < size; i++)
			rec[i] = sim_pattern(s->seq, i);
	sim_write(s, rec, size);
	s->seq++;
	s->prod += size;
	s->written++;
}

/* vnpu_ring_reserve(): false when the record was dropped. */
static bool sim_reserve(struct sim *s, __u16 type, __u32 bytes)
{
	__u32 size = vnpu_ring_rec_size(bytes);
	__u32 lost = s->lost_pending ? LOST_SIZE : 0;
	__u64 cons = sim_consumer(s);

	s->produced++;
	if (!vnpu_ring_fits(s->size, cons, s->prod, lost + size, LOST_SIZE)) {
		s->lost_pending++;
		s->lost++;
		return false;
	}
	if (lost) {
		sim_put(s, VNPU_REC_LOST, LOST_SIZE, s->lost_pending);
		s->lost_pending = 0;
	}
	sim_put(s, type, size, 0);
	/* the reserve: room for a LOST record is always left (plain arithmetic) */
	if (s->prod - s->seen > s->size - LOST_SIZE)
		SIM_BAD(s);
	return true;
}

/* vnpu_ring_publish() */
static void sim_publish(struct sim *s)
{
	if (s->prod - s->seen > s->size)
		SIM_BAD(s);
	s->pub = s->prod;
}

/* vnpu_ring_stop(): the final LOST record must fit without a new look. */
static void sim_stop(struct sim *s)
{
	if (s->lost_pending) {
		if (s->prod - s->seen > s->size - LOST_SIZE)
			SIM_BAD(s);
		sim_put(s, VNPU_REC_LOST, LOST_SIZE, s->lost_pending);
		s->lost_pending = 0;
	}
	sim_publish(s);
}

/* The consumer: read up to @max records, check them, store the position. */
static void sim_read(struct sim *s, __u64 max)
{
	while (max-- && s->cons != s->pub) {
		const unsigned char *rec = s->data + vnpu_ring_offset(s->cons, s->size);
		struct vnpu_rec_hdr h;
		__u64 lost;

		memcpy(&h, rec, sizeof(h));
		if (h.size < HDR_SIZE || h.size % 8 || h.size > s->pub - s->cons) {
			SIM_BAD(s);
			return;
		}
		if (h.seq != s->rseq)
			SIM_BAD(s);
		s->rseq = h.seq + 1;
		s->rwritten++;
		if (h.type == VNPU_REC_LOST) {
			memcpy(&lost, rec + HDR_SIZE, sizeof(lost));
			if (h.size != LOST_SIZE || !lost)
				SIM_BAD(s);
			s->rlost += lost;
		} else {
			s->rrecords++;
			for (__u32 i = HDR_SIZE; i < h.size; i++)
				if (rec[i] != sim_pattern(h.seq, i))
					SIM_BAD(s);
		}
		s->cons += h.size;
	}
	s->shared_cons = s->cons; /* store-release */
}

/*
 * Is the shared position one the kernel would take as progress past what
 * the consumer has read? That frees bytes still unread: the consumer's own
 * loss, which the kernel cannot tell from progress. A garbage position ahead
 * of the producer becomes one once the producer passes it.
 */
static bool sim_dangerous(const struct sim *s, __u64 g)
{
	return vnpu_ring_cons_valid(s->seen, g, s->prod) && g - s->cons - 1 < s->prod - s->cons;
}

/* A garbage position: behind, ahead, far ahead, ~0, 0, random, a rewind. */
static __u64 sim_garbage(struct sim *s)
{
	__u64 g;

	switch (sim_rand(s) % 7) {
	case 0:
		g = sim_rand(s);
		break;
	case 1:
		g = s->seen - 1 - sim_rand(s) % 4096; /* behind */
		break;
	case 2:
		g = s->prod + 1 + sim_rand(s) % 4096; /* ahead */
		break;
	case 3:
		g = U64_TOP;
		break;
	case 4:
		g = s->seen + (1ULL << 63); /* far ahead */
		break;
	case 5:
		g = s->seen + (s->cons - s->seen) / 2; /* a rewind: valid, harmless */
		break;
	default:
		g = 0;
		break;
	}
	return sim_dangerous(s, g) ? s->cons : g;
}

/*
 * One task's worth of records (1..4), then publish; sizes per variant. The
 * consumer model takes back a garbage position before it turns into
 * progress past its reads (see sim_dangerous()).
 */
static void sim_task(struct sim *s, __u32 min_bytes, __u32 max_bytes)
{
	int n = 1 + sim_rand(s) % 4;

	for (int i = 0; i < n; i++) {
		__u32 bytes = min_bytes + sim_rand(s) % (max_bytes - min_bytes + 1);

		if (sim_dangerous(s, s->shared_cons))
			s->shared_cons = s->cons;
		sim_reserve(s, VNPU_REC_TASK_START + sim_rand(s) % 7, bytes);
	}
	sim_publish(s);
}

FIXTURE(sim)
{
	struct sim s;
};

FIXTURE_VARIANT(sim)
{
	__u64 size;
	__u64 base;
	__u32 min_bytes, max_bytes;
	__u64 seed;
};

#define SIM_VARIANT(name, size_, base_, min_, max_, seed_)                                         \
	FIXTURE_VARIANT_ADD(sim, name)                                                             \
	{                                                                                          \
		.size = size_, .base = base_, .min_bytes = min_, .max_bytes = max_, .seed = seed_, \
	}

/* 256 bytes: a pending LOST record, a 200-byte record and the reserve fit */
SIM_VARIANT(r256_at_0, 256, 0, 16, 200, 1);
SIM_VARIANT(r256_near_2_64, 256, U64_TOP - 3000, 16, 200, 2);
SIM_VARIANT(r512_near_2_63, 512, (1ULL << 63) - 77 * 8, 16, 300, 3);
/* the kernel's smallest ring and its record sizes, 40 .. 744 bytes */
SIM_VARIANT(r4096_kernel_sizes_near_2_64, 4096, U64_TOP - 7, 40, 744, 4);
SIM_VARIANT(r4096_kernel_sizes_at_0, 4096, 0, 40, 744, 5);

FIXTURE_SETUP(sim)
{
	sim_init(&self->s, variant->size, variant->base, variant->seed);
}

FIXTURE_TEARDOWN(sim)
{
}

/*
 * Random producer and consumer: tasks, reads of a few records, stalls and
 * garbage positions. Nothing read is corrupt, nothing unseen is overwritten,
 * and after stop and a full drain produced == consumed + lost.
 */
TEST_F(sim, random_consumer)
{
	struct sim *s = &self->s;

	for (int step = 0; step < 200000 && !s->bad; step++) {
		switch (sim_rand(s) % 8) {
		case 0:
		case 1:
		case 2:
			sim_task(s, variant->min_bytes, variant->max_bytes);
			break;
		case 3:
		case 4:
			sim_read(s, 1 + sim_rand(s) % 8);
			break;
		case 5:
			s->shared_cons = sim_garbage(s);
			break;
		default:
			break; /* a stall */
		}
	}
	sim_stop(s);
	sim_read(s, ~0ULL);
	EXPECT_EQ(0, s->bad) TH_LOG("inconsistent at test line %d", s->bad);
	EXPECT_EQ(s->prod, s->cons);
	EXPECT_EQ(s->produced, s->rrecords + s->rlost);
	EXPECT_EQ(s->lost, s->rlost);
	EXPECT_EQ(s->written, s->rwritten);
	EXPECT_EQ(s->seq, s->rseq);
	EXPECT_EQ(0, s->lost_pending);
	/* the run did exercise both paths, and wrapped the data area */
	EXPECT_GT(s->rlost, 0);
	EXPECT_GT(s->rrecords, 1000);
	EXPECT_GT(s->prod - s->base, 100 * s->size);
	TH_LOG("%llu produced, %llu lost, %llu bytes", (unsigned long long)s->produced,
	       (unsigned long long)s->lost, (unsigned long long)(s->prod - s->base));
}

/* ---- deterministic cases of the reserve ---- */

/*
 * No consumer: 40-byte records into 4096 bytes. 101 fit (4040 bytes, 56
 * left: a record needs 40 + 24), the rest are dropped, and at stop the
 * final LOST record takes 24 of the 56.
 */
TEST(lost_reserve_keeps_room_for_the_final_lost_record)
{
	static struct sim s;

	sim_init(&s, 4096, 0, 0);
	for (int i = 0; i < 150; i++)
		sim_reserve(&s, VNPU_REC_TASK_START, 40);
	sim_publish(&s);
	EXPECT_EQ(101, s.written);
	EXPECT_EQ(4040, s.prod);
	EXPECT_EQ(49, s.lost);
	EXPECT_EQ(49, s.lost_pending);
	sim_stop(&s);
	EXPECT_EQ(102, s.written);
	EXPECT_EQ(4064, s.prod);
	sim_read(&s, ~0ULL);
	EXPECT_EQ(0, s.bad) TH_LOG("line %d", s.bad);
	EXPECT_EQ(101, s.rrecords);
	EXPECT_EQ(49, s.rlost);
	EXPECT_EQ(150, s.rrecords + s.rlost);
}

/* After drops, the next record that fits comes right after a LOST record. */
TEST(lost_record_precedes_the_next_record)
{
	static struct sim s;
	struct vnpu_rec_hdr h;
	__u64 at, lost;

	sim_init(&s, 4096, U64_TOP - 100, 0);
	for (int i = 0; i < 110; i++)
		sim_reserve(&s, VNPU_REC_TASK_END, 40);
	sim_publish(&s);
	ASSERT_EQ(9, s.lost);
	sim_read(&s, ~0ULL); /* everything: room again */
	at = s.prod;
	EXPECT_TRUE(sim_reserve(&s, VNPU_REC_PMU, 184));
	sim_publish(&s);
	memcpy(&h, s.data + vnpu_ring_offset(at, s.size), sizeof(h));
	EXPECT_EQ(VNPU_REC_LOST, h.type);
	EXPECT_EQ(101, h.seq);
	memcpy(&lost, s.data + vnpu_ring_offset(at, s.size) + HDR_SIZE, sizeof(lost));
	EXPECT_EQ(9, lost);
	memcpy(&h, s.data + vnpu_ring_offset(at + LOST_SIZE, s.size), sizeof(h));
	EXPECT_EQ(VNPU_REC_PMU, h.type);
	EXPECT_EQ(102, h.seq);
	EXPECT_EQ(0, s.lost_pending);
	sim_read(&s, ~0ULL);
	EXPECT_EQ(0, s.bad) TH_LOG("line %d", s.bad);
	EXPECT_EQ(s.produced, s.rrecords + s.rlost);
}

/*
 * A record across the end of the data area reads contiguously, and the
 * positions cross 2^64 at the same time.
 */
TEST(record_across_the_end_of_the_data_area)
{
	static struct sim s;
	struct vnpu_rec_hdr h;

	sim_init(&s, 4096, U64_TOP - 15, 0); /* offset 4080: 16 bytes before the end */
	ASSERT_EQ(4080, vnpu_ring_offset(s.prod, s.size));
	ASSERT_TRUE(sim_reserve(&s, VNPU_REC_COMM, 128));
	sim_publish(&s);
	/* read in place from the first copy: the tail comes from the second */
	memcpy(&h, s.data + 4080, sizeof(h));
	EXPECT_EQ(VNPU_REC_COMM, h.type);
	EXPECT_EQ(128, h.size);
	for (__u32 i = HDR_SIZE; i < 128; i++) {
		ASSERT_EQ(sim_pattern(h.seq, i), s.data[4080 + i]) TH_LOG("byte %u", i);
	}
	/* the second copy holds the same bytes as the start of the first */
	EXPECT_EQ(0, memcmp(s.data + 4096, s.data, 112));
	EXPECT_EQ(112, s.prod);
	EXPECT_EQ(128, vnpu_ring_used(s.base, s.prod));
	sim_read(&s, ~0ULL);
	EXPECT_EQ(0, s.bad) TH_LOG("line %d", s.bad);
	EXPECT_EQ(s.prod, s.cons);
	EXPECT_EQ(1, s.rrecords);
}

/*
 * A position ahead of the producer is no progress, until the producer
 * passes it: then it is plausible and taken. The kernel cannot tell it from
 * a real read, and only the consumer loses by it (docs/ring.md).
 */
TEST(ahead_position_counts_once_the_producer_passes_it)
{
	static struct sim s;

	sim_init(&s, 4096, U64_TOP - 50, 0);
	s.shared_cons = s.base + 200;
	for (int i = 0; i < 4; i++)
		ASSERT_TRUE(sim_reserve(&s, VNPU_REC_TASK_START, 40));
	EXPECT_EQ(s.base, s.seen) TH_LOG("160 bytes written: 200 is ahead");
	ASSERT_TRUE(sim_reserve(&s, VNPU_REC_TASK_START, 40));
	ASSERT_TRUE(sim_reserve(&s, VNPU_REC_TASK_START, 40)); /* this one reads it */
	EXPECT_EQ(s.base + 200, s.seen);
	EXPECT_EQ(s.base + 240, s.prod);
}

/* Garbage consumer positions free no room: every record is dropped. */
TEST(garbage_positions_free_no_room)
{
	static struct sim s;
	__u64 seen, prod, garbage[6];

	/* the window [seen, prod] ends below ~0, so ~0 is ahead */
	sim_init(&s, 4096, U64_TOP - 8000, 0);
	while (sim_reserve(&s, VNPU_REC_OP_INFO, 168))
		;
	ASSERT_EQ(24 * 168, s.prod - s.base);
	sim_publish(&s);
	seen = s.seen;
	prod = s.prod;
	garbage[0] = seen - 1;
	garbage[1] = prod + 1;
	garbage[2] = seen + (1ULL << 63);
	garbage[3] = prod + 4096;
	garbage[4] = seen - 4096;
	garbage[5] = U64_TOP;
	for (size_t g = 0; g < ARRAY_SIZE(garbage); g++) {
		ASSERT_FALSE(vnpu_ring_cons_valid(seen, garbage[g], prod)) TH_LOG("garbage %zu", g);
		s.shared_cons = garbage[g];
		for (int i = 0; i < 20; i++)
			EXPECT_FALSE(sim_reserve(&s, VNPU_REC_OP_INFO, 168));
		sim_publish(&s);
		EXPECT_EQ(seen, s.seen);
		EXPECT_EQ(prod, s.prod);
	}
	EXPECT_EQ(1 + 6 * 20, s.lost_pending);
	/* a good position again: the LOST record first, then records */
	sim_read(&s, ~0ULL);
	EXPECT_TRUE(sim_reserve(&s, VNPU_REC_OP_INFO, 168));
	sim_stop(&s);
	sim_read(&s, ~0ULL);
	EXPECT_EQ(0, s.bad) TH_LOG("line %d", s.bad);
	EXPECT_EQ(1 + 6 * 20, s.rlost);
	EXPECT_EQ(s.produced, s.rrecords + s.rlost);
}

TEST_HARNESS_MAIN
