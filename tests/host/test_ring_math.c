// SPDX-License-Identifier: GPL-2.0
/*
 * The ring arithmetic of uapi/vnpu_ring_math.h, as docs/ring.md states it:
 * offsets, used/fits on empty, full and exactly-full rings (a reservation
 * that takes the last free byte fits, one byte more does not), a corrupt
 * used above the size, the wrap of the data area and of the u64 positions
 * around 2^64, and cons_valid for consumer positions behind, equal, ahead,
 * far ahead and ~0, with the last seen one near 2^64.
 *
 * Then a simulation: one channel's producer of kmod/vnpu_ring.c
 * (vnpu_chan_consumer(), vnpu_chan_reserve() of 1, 2 or 4 fixed-size
 * records back to back or none, with the channel's 4-bit counter, and
 * vnpu_ring_publish()), written here over the same helpers, against a
 * consumer that reads, stalls, rewinds and writes garbage positions,
 * through small rings of the channels' record sizes (64, 128, 40 and 256
 * bytes) whose positions start at 0, below 2^63 and near 2^64. Each record
 * carries its produced index, the channel's lost count when it was
 * reserved, its counter, its place in its reservation and a pattern. It
 * checks produced == consumed + lost exactly; every record read back as
 * written; each record's counter == its produced index & 0xf, so that the
 * gap the reader sees in the counters is the records lost in between;
 * that the records of one reservation are read together or lost together;
 * and, through a shadow of the data area, that the producer never
 * overwrites a byte the kernel has not seen consumed.
 */
#include <stdint.h>
#include <string.h>

#include "kselftest_harness.h"
#include "vnpu_ascend.h"
#include "vnpu_prof.h"
#include "vnpu_ring_math.h"

#define U64_TOP (~0ULL) /* 2^64 - 1 */

/* ---- the pure functions ---- */

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

		EXPECT_TRUE(vnpu_ring_fits(4096, p, p, 4096)) TH_LOG("the whole ring");
		EXPECT_FALSE(vnpu_ring_fits(4096, p, p, 4097));
		EXPECT_TRUE(vnpu_ring_fits(4096, p, p, 2 * 64)) TH_LOG("a pair of 64-byte records");
		EXPECT_TRUE(vnpu_ring_fits(4096, p, p, 0));
	}
}

TEST(fits_on_a_full_ring)
{
	/* used == size, positions across 2^64 */
	__u64 cons = U64_TOP - 1000, prod = cons + 4096;

	EXPECT_EQ(4096, vnpu_ring_used(cons, prod));
	EXPECT_FALSE(vnpu_ring_fits(4096, cons, prod, 64));
	EXPECT_FALSE(vnpu_ring_fits(4096, cons, prod, 1));
	EXPECT_TRUE(vnpu_ring_fits(4096, cons, prod, 0)) TH_LOG("nothing fits in nothing");
	/* one byte short of full */
	EXPECT_TRUE(vnpu_ring_fits(4096, cons, prod - 1, 1));
	EXPECT_FALSE(vnpu_ring_fits(4096, cons, prod - 1, 2));
	/* one record short of full: one record fits, a pair does not */
	EXPECT_TRUE(vnpu_ring_fits(4096, cons, prod - 64, 64));
	EXPECT_FALSE(vnpu_ring_fits(4096, cons, prod - 64, 2 * 64));
}

/* A reservation that takes the last free byte fits; one byte more does not. */
TEST(fits_exactly)
{
	static const __u64 at[] = { 0, (1ULL << 63) - 500, 1ULL << 63, U64_TOP - 500 };

	for (size_t i = 0; i < ARRAY_SIZE(at); i++) {
		__u64 cons = at[i], prod = cons + 1000; /* 3096 free */

		EXPECT_TRUE(vnpu_ring_fits(4096, cons, prod, 3096));
		EXPECT_FALSE(vnpu_ring_fits(4096, cons, prod, 3097));
		/* 64-byte records: 62 unread, two left */
		prod = cons + 62 * 64;
		EXPECT_TRUE(vnpu_ring_fits(4096, cons, prod, 2 * 64))
		TH_LOG("at %#llx",
									 (unsigned long long)cons);
		EXPECT_FALSE(vnpu_ring_fits(4096, cons, prod, 2 * 64 + 1));
		EXPECT_FALSE(vnpu_ring_fits(4096, cons, prod, 4 * 64));
		/* 40-byte records do not divide the ring: 102 unread, 16 bytes left */
		prod = cons + 102 * 40;
		EXPECT_FALSE(vnpu_ring_fits(4096, cons, prod, 40));
		EXPECT_TRUE(vnpu_ring_fits(4096, cons + 24, prod, 40));
	}
}

/* A "used" above the size (a corrupt position) never leaves room. */
TEST(fits_refuses_more_used_than_the_size)
{
	__u64 prod = 10000;

	EXPECT_FALSE(vnpu_ring_fits(4096, prod - 4097, prod, 0));
	EXPECT_FALSE(vnpu_ring_fits(4096, prod - 8192, prod, 8));
	/* a consumer ahead of the producer: used wraps to almost 2^64 */
	EXPECT_FALSE(vnpu_ring_fits(4096, prod + 8, prod, 8));
	EXPECT_FALSE(vnpu_ring_fits(4096, prod + 1, prod, 0));
	EXPECT_FALSE(vnpu_ring_fits(4096, U64_TOP, 0 + 4096 + 2, 0));
	/* across 2^64: 4097 used */
	EXPECT_FALSE(vnpu_ring_fits(4096, U64_TOP - 2047, 2049, 0));
	EXPECT_TRUE(vnpu_ring_fits(4096, U64_TOP - 2047, 2048, 0));
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

/* ---- one channel's producer of kmod/vnpu_ring.c over these helpers, and a consumer ---- */

#define SIM_MAX_DATA 4096
#define SIM_MAX_REC 256 /* struct vnpu_aicpu_node */
#define SIM_MAX_N 4 /* records in one reservation: a mix task's four logs */
#define NEVER 0 /* shadow: no byte written here yet */

/*
 * A simulated record (at least 40 bytes, struct vnpu_ts_flip's size): what
 * the reader needs to check it, then a pattern to its end.
 */
#define SIM_IDX 0 /* __u64: its produced index (from 0, dropped ones included) */
#define SIM_LOST 8 /* __u64: the channel's lost count when it was reserved */
#define SIM_CNT 16 /* the 4-bit counter, as vnpu_chan_reserve() gave it (+ k) */
#define SIM_K 17 /* its place in its reservation */
#define SIM_N 18 /* records in its reservation */
#define SIM_PAT 19 /* the pattern, to the end */

struct sim {
	__u64 size; /* data bytes, a power of two */
	__u32 rec_size;
	__u64 base; /* the first position */
	/* the kernel's side (struct vnpu_chan) */
	__u64 prod, published, cons_seen, produced, lost, written;
	__u8 cnt;
	/* the position of the last reservation that fitted */
	__u64 last;
	/* reservations dropped, and of those, of more than one record */
	__u64 lost_groups, lost_multi;
	/* the data area, twice: the double mapping */
	unsigned char data[2 * SIM_MAX_DATA];
	/* per offset: 1 + the logical position (from base) of the byte there */
	__u64 shadow[SIM_MAX_DATA];
	__u64 shared_cons; /* the channel's consumer_pos in the consumer page */
	/* the consumer's side */
	__u64 cons, rrecords, rgroups, rmulti;
	__u64 rnext; /* the produced index after the last record read */
	__u64 rlost; /* the lost count the last record read carried */
	__u64 rgap; /* records the reader saw missing (by the indices; the counters agree) */
	__u8 rcnt, rk, rn; /* the last record read (rcnt: 0xf before the first) */
	bool rany;
	__u64 rng;
	int bad; /* first inconsistency: a line of this file */
};

#define SIM_BAD(s)                           \
	do {                                 \
		if (!(s)->bad)               \
			(s)->bad = __LINE__; \
	} while (0)

static void sim_init(struct sim *s, __u64 size, __u32 rec_size, __u64 base, __u64 seed)
{
	memset(s, 0, sizeof(*s));
	s->size = size;
	s->rec_size = rec_size;
	s->base = base;
	s->prod = s->published = s->cons_seen = s->shared_cons = s->cons = base;
	s->rcnt = 0xf; /* the counter starts at 0 */
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

static unsigned char sim_pattern(__u64 idx, __u32 i)
{
	return (unsigned char)(idx * 131 + i * 7 + 1);
}

/* vnpu_chan_consumer(): one read of the shared position, validated. */
static __u64 sim_consumer(struct sim *s)
{
	__u64 cons = s->shared_cons; /* smp_load_acquire(c->cons) */

	/* a reader can only have read what was published */
	if (vnpu_ring_cons_valid(s->cons_seen, cons, s->published))
		s->cons_seen = cons; /* WRITE_ONCE(c->cons_seen, cons) */
	return s->cons_seen;
}

/*
 * vnpu_chan_reserve(): room for @n records at *@pos, or false when all @n
 * were dropped; *@cnt is the first record's counter either way.
 */
static bool sim_reserve(struct sim *s, __u32 n, __u8 *cnt, __u64 *pos)
{
	__u64 cons = sim_consumer(s);
	__u32 bytes = n * s->rec_size;

	*cnt = s->cnt & 0xf;
	s->cnt += n;
	s->produced += n;
	if (!vnpu_ring_fits(s->size, cons, s->prod, bytes)) {
		s->lost += n;
		return false;
	}
	*pos = s->prod;
	s->prod += bytes;
	s->written += n;
	/* never more unread than the ring holds (plain arithmetic) */
	if (s->prod - s->cons_seen > s->size)
		SIM_BAD(s);
	return true;
}

/* Write @size bytes at @pos, as the double mapping does. */
static void sim_write(struct sim *s, __u64 pos, const unsigned char *buf, __u32 size)
{
	__u64 seen_l = s->cons_seen - s->base;

	for (__u32 i = 0; i < size; i++) {
		__u64 off = vnpu_ring_offset(pos + i, s->size);
		__u64 old = s->shadow[off];

		/* the byte there must be one the kernel saw consumed */
		if (old != NEVER && old - 1 >= seen_l)
			SIM_BAD(s);
		s->shadow[off] = pos + i - s->base + 1;
		s->data[off] = buf[i];
		s->data[off + s->size] = buf[i];
	}
}

/* A caller of vnpu_chan_reserve(): @n records in one reservation, filled. */
static bool sim_put(struct sim *s, __u32 n)
{
	unsigned char buf[SIM_MAX_N * SIM_MAX_REC];
	__u64 idx = s->produced, lost = s->lost, pos;
	__u8 cnt;

	if (!sim_reserve(s, n, &cnt, &pos)) {
		s->lost_groups++;
		s->lost_multi += n > 1;
		return false;
	}
	for (__u32 k = 0; k < n; k++) {
		unsigned char *rec = buf + k * s->rec_size;
		__u64 ik = idx + k;

		memcpy(rec + SIM_IDX, &ik, sizeof(ik));
		memcpy(rec + SIM_LOST, &lost, sizeof(lost));
		rec[SIM_CNT] = (cnt + k) & 0xf; /* as VNPU_ACSQ_WORD0() keeps it */
		rec[SIM_K] = (unsigned char)k;
		rec[SIM_N] = (unsigned char)n;
		for (__u32 i = SIM_PAT; i < s->rec_size; i++)
			rec[i] = sim_pattern(ik, i);
	}
	sim_write(s, pos, buf, n * s->rec_size);
	s->last = pos;
	return true;
}

/* vnpu_ring_publish() (and vnpu_ring_stop(), which is only that now) */
static void sim_publish(struct sim *s)
{
	if (s->prod - s->cons_seen > s->size)
		SIM_BAD(s);
	s->published = s->prod;
}

/* The consumer: read up to @max records, check them, store the position. */
static void sim_read(struct sim *s, __u64 max)
{
	while (max-- && s->cons != s->published) {
		const unsigned char *rec = s->data + vnpu_ring_offset(s->cons, s->size);
		__u8 cnt = rec[SIM_CNT], k = rec[SIM_K], n = rec[SIM_N];
		__u64 idx, lost;

		memcpy(&idx, rec + SIM_IDX, sizeof(idx));
		memcpy(&lost, rec + SIM_LOST, sizeof(lost));
		/* whole records only */
		if (s->published - s->cons < s->rec_size || n < 1 || n > SIM_MAX_N || k >= n) {
			SIM_BAD(s);
			return;
		}
		/* the counter is the produced index, dropped records included */
		if (cnt != (idx & 0xf))
			SIM_BAD(s);
		/*
		 * The gap: no written record is missing (an overwritten one
		 * would be), so the indices skipped are the records lost in
		 * between, and the counters show it modulo 16.
		 */
		if (idx - s->rnext != lost - s->rlost)
			SIM_BAD(s);
		if (((cnt - s->rcnt - 1) & 0xf) != ((lost - s->rlost) & 0xf))
			SIM_BAD(s);
		s->rgap += idx - s->rnext;
		/* a reservation is read together (or was lost together) */
		if (k == 0) {
			if (s->rany && s->rk + 1 != s->rn)
				SIM_BAD(s);
			if (s->published - s->cons < (__u64)n * s->rec_size)
				SIM_BAD(s);
			s->rgroups++;
			s->rmulti += n > 1;
		} else if (!s->rany || s->rk + 1 != k || s->rn != n || idx != s->rnext) {
			SIM_BAD(s);
		}
		for (__u32 i = SIM_PAT; i < s->rec_size; i++)
			if (rec[i] != sim_pattern(idx, i))
				SIM_BAD(s);
		s->rnext = idx + 1;
		s->rlost = lost;
		s->rcnt = cnt;
		s->rk = k;
		s->rn = n;
		s->rany = true;
		s->rrecords++;
		s->cons += s->rec_size;
	}
	s->shared_cons = s->cons; /* store-release */
}

/* The checks at the end, once everything published is read. */
static void sim_check_drained(struct sim *s)
{
	if (s->cons != s->prod || s->cons - s->base != s->rrecords * s->rec_size)
		SIM_BAD(s);
	/* per channel: produced == consumed + lost, exactly */
	if (s->produced != s->rrecords + s->lost || s->written != s->rrecords)
		SIM_BAD(s);
	/* the records lost after the last one read, and the whole gap */
	if (s->produced - s->rnext != s->lost - s->rlost ||
	    s->rgap + s->produced - s->rnext != s->lost)
		SIM_BAD(s);
	/* the last reservation is complete */
	if (s->rany && s->rk + 1 != s->rn)
		SIM_BAD(s);
	if (s->cnt != (__u8)s->produced)
		SIM_BAD(s);
}

/*
 * Is the shared position one the kernel would take as progress past what
 * the consumer has read? That frees bytes still unread: the consumer's own
 * loss, which the kernel cannot tell from progress. A garbage position ahead
 * of the producer becomes one once the producer publishes past it.
 */
static bool sim_dangerous(const struct sim *s, __u64 g)
{
	return vnpu_ring_cons_valid(s->cons_seen, g, s->published) &&
	       g - s->cons - 1 < s->published - s->cons;
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
		g = s->cons_seen - 1 - sim_rand(s) % 4096; /* behind */
		break;
	case 2:
		g = s->published + 1 + sim_rand(s) % 4096; /* ahead */
		break;
	case 3:
		g = U64_TOP;
		break;
	case 4:
		g = s->cons_seen + (1ULL << 63); /* far ahead */
		break;
	case 5:
		/* a rewind, maybe into a record: valid, harmless */
		g = s->cons_seen + (s->cons - s->cons_seen) / 2;
		break;
	default:
		g = 0;
		break;
	}
	return sim_dangerous(s, g) ? s->cons : g;
}

/*
 * One task's worth of reservations (1..3, of 1, 2 or 4 records), then
 * publish. The consumer model takes back a garbage position before it
 * turns into progress past its reads (see sim_dangerous()).
 */
static void sim_task(struct sim *s)
{
	static const __u32 ns[] = { 1, 2, 2, 4 };
	int n = 1 + sim_rand(s) % 3;

	for (int i = 0; i < n; i++) {
		if (sim_dangerous(s, s->shared_cons))
			s->shared_cons = s->cons;
		sim_put(s, ns[sim_rand(s) % ARRAY_SIZE(ns)]);
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
	__u32 rec_size;
	__u64 base;
	__u64 seed;
};

#define SIM_VARIANT(name, size_, rec_, base_, seed_)                           \
	FIXTURE_VARIANT_ADD(sim, name)                                         \
	{                                                                      \
		.size = size_, .rec_size = rec_, .base = base_, .seed = seed_, \
	}

/*
 * The kernel's positions start at 0 and are multiples of rec_size; the
 * simulation's are multiples of rec_size from base. With a record size
 * that is a power of two, base is a multiple of it (as 0 is) and records
 * never cross the end of the data area; 40 divides neither the ring nor
 * 2^64, so 40-byte records cross it, the double mapping making them
 * contiguous.
 */
#define ACSQ ((__u32)sizeof(struct vnpu_acsq_log)) /* 64 */
#define PMU ((__u32)sizeof(struct vnpu_ffts_pmu)) /* 128 */
#define TS ((__u32)sizeof(struct vnpu_ts_flip)) /* 40 */
#define AICPU ((__u32)sizeof(struct vnpu_aicpu_node)) /* 256 */
SIM_VARIANT(acsq_1k_at_0, 1024, ACSQ, 0, 1);
SIM_VARIANT(acsq_1k_near_2_64, 1024, ACSQ, 0ULL - 37 * 64, 2);
SIM_VARIANT(pmu_4k_below_2_63, 4096, PMU, (1ULL << 63) - 13 * 128, 3);
SIM_VARIANT(pmu_4k_near_2_64, 4096, PMU, 0ULL - 7 * 128, 4);
SIM_VARIANT(ts_4k_at_0, 4096, TS, 0, 5);
SIM_VARIANT(ts_4k_near_2_64, 4096, TS, U64_TOP - 3000, 6);
SIM_VARIANT(aicpu_2k_near_2_64, 2048, AICPU, 0ULL - 5 * 256, 7);

FIXTURE_SETUP(sim)
{
	ASSERT_EQ(64, ACSQ);
	ASSERT_EQ(128, PMU);
	ASSERT_EQ(40, TS);
	ASSERT_EQ(256, AICPU);
	ASSERT_LE(variant->size, SIM_MAX_DATA);
	ASSERT_LE(variant->rec_size, SIM_MAX_REC);
	ASSERT_LE(SIM_MAX_N * variant->rec_size, variant->size);
	sim_init(&self->s, variant->size, variant->rec_size, variant->base, variant->seed);
}

FIXTURE_TEARDOWN(sim)
{
}

/*
 * Random producer and consumer: tasks, reads of a few records, stalls and
 * garbage positions. Nothing read is corrupt, nothing unseen is overwritten,
 * every gap is the records lost, no reservation is split, and after a full
 * drain produced == consumed + lost.
 */
TEST_F(sim, random_consumer)
{
	struct sim *s = &self->s;

	for (int step = 0; step < 200000 && !s->bad; step++) {
		switch (sim_rand(s) % 8) {
		case 0:
		case 1:
		case 2:
			sim_task(s);
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
	sim_publish(s);
	sim_read(s, ~0ULL);
	sim_check_drained(s);
	EXPECT_EQ(0, s->bad) TH_LOG("inconsistent at test line %d", s->bad);
	EXPECT_EQ(s->prod, s->cons);
	EXPECT_EQ(s->produced, s->rrecords + s->lost);
	EXPECT_EQ(s->written, s->rrecords);
	EXPECT_EQ(s->lost, s->rgap + (s->produced - s->rnext));
	/* the run did exercise both paths, and wrapped the data area */
	EXPECT_GT(s->lost_multi, 0) TH_LOG("no reservation of several records was lost");
	EXPECT_GT(s->rmulti, 1000);
	EXPECT_GT(s->rrecords, 10000);
	EXPECT_GT(s->prod - s->base, 100 * s->size);
	TH_LOG("%llu produced, %llu lost in %llu reservations, %llu bytes",
	       (unsigned long long)s->produced, (unsigned long long)s->lost,
	       (unsigned long long)s->lost_groups, (unsigned long long)(s->prod - s->base));
}

/* ---- deterministic cases ---- */

/* The counter a record at @pos carries. */
static __u8 sim_cnt_at(const struct sim *s, __u64 pos)
{
	return s->data[vnpu_ring_offset(pos, s->size) + SIM_CNT];
}

/*
 * No consumer: 64-byte records into 4096 bytes, 64 of them. 31 pairs and
 * one record leave room for one: a pair is dropped whole, a single record
 * still takes the last 64 bytes (exactly full), then everything is dropped.
 */
TEST(full_ring_drops_whole_reservations)
{
	static struct sim s;

	sim_init(&s, 4096, 64, 0, 0);
	for (int i = 0; i < 31; i++)
		ASSERT_TRUE(sim_put(&s, 2));
	ASSERT_TRUE(sim_put(&s, 1));
	EXPECT_FALSE(sim_put(&s, 2)) TH_LOG("a pair in one record's room");
	EXPECT_EQ(63 * 64, s.prod) TH_LOG("no half pair written");
	EXPECT_EQ(2, s.lost);
	EXPECT_TRUE(sim_put(&s, 1)) TH_LOG("the last record of room");
	EXPECT_EQ(4096, vnpu_ring_used(s.base, s.prod));
	EXPECT_EQ(65 & 0xf, sim_cnt_at(&s, s.last)) TH_LOG("counted the dropped pair");
	for (int i = 0; i < 10; i++) {
		EXPECT_FALSE(sim_put(&s, 1));
		EXPECT_FALSE(sim_put(&s, 4));
	}
	sim_publish(&s);
	EXPECT_EQ(4096, s.prod);
	EXPECT_EQ(64, s.written);
	EXPECT_EQ(2 + 10 * 5, s.lost);
	EXPECT_EQ(64 + 52, s.produced);
	EXPECT_EQ(21, s.lost_groups);
	sim_read(&s, ~0ULL);
	sim_check_drained(&s);
	EXPECT_EQ(0, s.bad) TH_LOG("line %d", s.bad);
	EXPECT_EQ(64, s.rrecords);
	EXPECT_EQ(33, s.rgroups);
	EXPECT_EQ(2, s.rgap) TH_LOG("the pair, seen before the last record");
	EXPECT_EQ(s.produced, s.rrecords + s.lost);
}

/*
 * After drops, the next record's counter is the last one read + 1 + the
 * records lost, modulo 16: a gap of 5 shows as 5, one of 19 as 3 (the
 * channel's lost count says how many). Positions cross 2^64.
 */
TEST(counter_gap_is_the_records_lost)
{
	static struct sim s;
	__u8 before;

	sim_init(&s, 1024, 128, 0ULL - 3 * 128, 0); /* 8 records */
	for (int i = 0; i < 8; i++)
		ASSERT_TRUE(sim_put(&s, 1));
	before = sim_cnt_at(&s, s.last);
	EXPECT_EQ(7, before);
	EXPECT_FALSE(sim_put(&s, 1));
	EXPECT_FALSE(sim_put(&s, 2));
	EXPECT_FALSE(sim_put(&s, 2));
	sim_publish(&s);
	sim_read(&s, ~0ULL); /* everything: room again */
	ASSERT_TRUE(sim_put(&s, 2));
	sim_publish(&s);
	EXPECT_EQ(13, sim_cnt_at(&s, s.last));
	EXPECT_EQ(14, sim_cnt_at(&s, s.last + 128));
	EXPECT_EQ(5, (sim_cnt_at(&s, s.last) - before - 1) & 0xf);
	EXPECT_EQ(5, s.lost);
	/* fill again, drop 19, drain, one more */
	while (sim_put(&s, 1))
		;
	before = sim_cnt_at(&s, s.last);
	for (int i = 0; i < 9; i++)
		EXPECT_FALSE(sim_put(&s, 2));
	EXPECT_EQ(5 + 1 + 18, s.lost);
	sim_publish(&s);
	sim_read(&s, ~0ULL);
	ASSERT_TRUE(sim_put(&s, 1));
	sim_publish(&s);
	EXPECT_EQ(3, (sim_cnt_at(&s, s.last) - before - 1) & 0xf) TH_LOG("19 modulo 16");
	sim_read(&s, ~0ULL);
	sim_check_drained(&s);
	EXPECT_EQ(0, s.bad) TH_LOG("line %d", s.bad);
	EXPECT_EQ(s.lost, s.rgap);
	EXPECT_EQ(s.produced, s.rrecords + s.lost);
	EXPECT_LT(s.prod, s.base) TH_LOG("crossed 2^64");
}

/*
 * Records across the end of the data area read contiguously through the
 * double mapping, while the positions cross 2^64: a pair of 64-byte records
 * split between the last and the first 64 bytes, and a 40-byte record
 * split in the middle (40 does not divide the ring).
 */
TEST(records_across_the_end_of_the_data_area)
{
	static struct sim s;

	sim_init(&s, 4096, 64, 0ULL - 64, 0); /* offset 4032: one record before the end */
	ASSERT_EQ(4032, vnpu_ring_offset(s.prod, s.size));
	ASSERT_TRUE(sim_put(&s, 2));
	sim_publish(&s);
	EXPECT_EQ(64, s.prod);
	EXPECT_EQ(0, sim_cnt_at(&s, s.last));
	EXPECT_EQ(1, s.data[4032 + 64 + SIM_CNT]) TH_LOG("the second, from the second copy");
	EXPECT_EQ(1, s.data[SIM_K]);
	EXPECT_EQ(0, memcmp(s.data + 4096, s.data, 64));
	sim_read(&s, ~0ULL);
	sim_check_drained(&s);
	EXPECT_EQ(0, s.bad) TH_LOG("line %d", s.bad);
	EXPECT_EQ(1, s.rgroups);
	EXPECT_EQ(2, s.rrecords);

	sim_init(&s, 4096, 40, U64_TOP - 15, 0); /* offset 4080: 16 bytes before the end */
	ASSERT_EQ(4080, vnpu_ring_offset(s.prod, s.size));
	ASSERT_TRUE(sim_put(&s, 1));
	sim_publish(&s);
	EXPECT_EQ(24, s.prod);
	/* read in place from the first copy: the tail comes from the second */
	for (__u32 i = SIM_PAT; i < 40; i++) {
		ASSERT_EQ(sim_pattern(0, i), s.data[4080 + i]) TH_LOG("byte %u", i);
	}
	/* the second copy holds the same bytes as the start of the first */
	EXPECT_EQ(0, memcmp(s.data + 4096, s.data, 24));
	EXPECT_EQ(40, vnpu_ring_used(s.base, s.prod));
	sim_read(&s, ~0ULL);
	sim_check_drained(&s);
	EXPECT_EQ(0, s.bad) TH_LOG("line %d", s.bad);
	EXPECT_EQ(s.prod, s.cons);
	EXPECT_EQ(1, s.rrecords);
}

/*
 * A position ahead of what is published is no progress, even once the
 * producer has written past it: only when it is published is it plausible
 * and taken. The kernel cannot tell it from a real read, and only the
 * consumer loses by it (docs/ring.md).
 */
TEST(ahead_position_counts_once_published)
{
	static struct sim s;

	sim_init(&s, 4096, 40, U64_TOP - 50, 0);
	s.shared_cons = s.base + 200;
	for (int i = 0; i < 4; i++)
		ASSERT_TRUE(sim_put(&s, 1));
	EXPECT_EQ(s.base, s.cons_seen) TH_LOG("160 bytes written: 200 is ahead");
	ASSERT_TRUE(sim_put(&s, 1));
	ASSERT_TRUE(sim_put(&s, 1));
	EXPECT_EQ(s.base, s.cons_seen) TH_LOG("240 bytes written, none published");
	sim_publish(&s);
	ASSERT_TRUE(sim_put(&s, 1)); /* this one reads it */
	EXPECT_EQ(s.base + 200, s.cons_seen);
	EXPECT_EQ(s.base + 280, s.prod);
	EXPECT_EQ(0, s.bad) TH_LOG("line %d", s.bad);
}

/* Garbage consumer positions free no room: every reservation is dropped. */
TEST(garbage_positions_free_no_room)
{
	static struct sim s;
	__u64 seen, prod, garbage[6];
	__u8 before;

	/* the window [seen, prod] ends below ~0, so ~0 is ahead */
	sim_init(&s, 4096, 128, U64_TOP - 8000, 0);
	while (sim_put(&s, 1))
		;
	ASSERT_EQ(32 * 128, s.prod - s.base);
	sim_publish(&s);
	before = sim_cnt_at(&s, s.last);
	seen = s.cons_seen;
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
			EXPECT_FALSE(sim_put(&s, 2));
		sim_publish(&s);
		EXPECT_EQ(seen, s.cons_seen);
		EXPECT_EQ(prod, s.prod);
	}
	EXPECT_EQ(1 + 6 * 20 * 2, s.lost);
	/* a good position again: records again, the gap in the counter */
	sim_read(&s, ~0ULL);
	EXPECT_TRUE(sim_put(&s, 1));
	sim_publish(&s);
	EXPECT_EQ((1 + 240) & 0xf, (sim_cnt_at(&s, s.last) - before - 1) & 0xf);
	sim_read(&s, ~0ULL);
	sim_check_drained(&s);
	EXPECT_EQ(0, s.bad) TH_LOG("line %d", s.bad);
	EXPECT_EQ(241, s.rgap);
	EXPECT_EQ(s.produced, s.rrecords + s.lost);
}

TEST_HARNESS_MAIN
