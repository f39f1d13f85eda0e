// SPDX-License-Identifier: GPL-2.0
/*
 * ring_transport: the vnpu channel rings against a BPF ring buffer, the
 * transport alone, side by side in one VM boot.
 *
 * No tasks run: in both modes a producer in the kernel writes the records
 * of N synthetic AI Core tasks, in batches of B, while a consumer thread
 * drains them.
 *
 *   vnpu   write(debugfs vnpu0/bench_tasks, B): the device writes each
 *          task's records into its running channel session exactly as it
 *          writes a real task's (vnpu_hwrec_bench(): the ACSQ start and end
 *          logs in one reservation, the context PMU record from L1 on,
 *          published after each task, 64 tasks per hold of the device
 *          lock); the consumer drains each channel with the ring's barrier
 *          contract (docs/ring.md), woken by poll() at the watermark (half
 *          a channel)
 *   bpf    bpf_prog_test_run(ring_transport.bpf.c, B): the same records,
 *          sizes and reservations, into a BPF ring buffer of as many bytes
 *          as the channels they go to (ACSQ, and PMU at L1), drained by libbpf's
 * ring_buffer__poll() (its own wakeups: when the consumer has caught up) bpfwm  the same, waking
 * the consumer as the vnpu ring does (only at half the ring unread)
 *
 * Each mode runs twice per rep:
 *   full rate   batches back to back: records/s delivered, and the loss;
 *   zero loss   before each batch the producer waits until the ring has
 *               room for it (it reads the consumer's position): the rate
 *               the transport sustains without losing a record.
 * Reps are interleaved and the medians compared. Every run checks that
 * read + lost == produced and that every record read is well formed.
 *
 *   ring_transport [-n tasks] [-b batch] [-p pages] [-r reps] [-l level]
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "bench.h"
#include "vnpu.h"
#include "vnpu_ascend.h"
#include "vnpu_prof.h"
#include "ring_transport.h"
#include "ring_chans.h"
#include "ring_transport.skel.h"

_Static_assert(sizeof(struct rt_acsq) == RT_ACSQ_SIZE, "ACSQ log size");
_Static_assert(sizeof(struct vnpu_acsq_log) == RT_ACSQ_SIZE, "ACSQ log size");
_Static_assert(sizeof(struct rt_pmu) == RT_PMU_SIZE, "PMU record size");
_Static_assert(sizeof(struct vnpu_ffts_pmu) == RT_PMU_SIZE, "PMU record size");
_Static_assert(RT_STARS_MAGIC == VNPU_STARS_MAGIC, "STARS magic");

#define BENCH_TASKS "/sys/kernel/debug/vnpu/vnpu0/bench_tasks"
/* the BPF ring buffer's header before each sample */
#define BPF_HDR 8

enum mode { M_VNPU, M_BPF, M_BPFWM, M_COUNT };
static const char *const mode_name[M_COUNT] = { "vnpu", "bpf", "bpfwm" };

struct cfg {
	enum mode mode;
	int level;
	int zero_loss; /* wait for room before each batch */
	unsigned long tasks;
	unsigned int batch;
	unsigned int pages;
};

struct result {
	double secs;
	double prod_secs; /* in the producer's calls (write, test_run) */
	uint64_t read; /* records read */
	uint64_t lost;
	uint64_t produced;
};

/* What the consumer thread and the producer share. */
struct shared {
	const struct cfg *c;
	atomic_int done; /* the producer has written its last batch */
	atomic_uint_fast64_t read; /* records read */
	atomic_uint_fast64_t read_bytes; /* BPF: bytes of samples read, headers included */
	uint64_t bad; /* malformed records */
};

static unsigned long page_size(void)
{
	return (unsigned long)sysconf(_SC_PAGESIZE);
}

/* Is @rec a record the producers write: the format, and the bench's stream? */
static int well_formed(const void *rec, unsigned int size, unsigned int ch)
{
	(void)ch;
	return bench_rec_ok(rec, size, VNPU_MAX_HW_STREAMS - 1);
}

/* ---- the vnpu channels ---- */

struct vsess {
	struct bench_chans chans;
	int bench_fd;
};

static void vsess_open(struct vsess *v, const struct cfg *c)
{
	bench_chans_open(&v->chans, c->level, c->pages);
	v->bench_fd = open(BENCH_TASKS, O_WRONLY | O_CLOEXEC);
	if (v->bench_fd < 0)
		bench_die(BENCH_TASKS);
}

/* Read every record of every channel. */
static void vsess_consume(struct vsess *v, struct shared *sh)
{
	for (unsigned int i = 0; i < VNPU_CH_COUNT; i++)
		atomic_fetch_add(&sh->read,
				 bench_chan_consume(&v->chans, i, well_formed, &sh->bad));
}

struct vdrain {
	struct vsess *v;
	struct shared *sh;
};

static void *vsess_drain(void *arg)
{
	struct vdrain *d = arg;
	struct pollfd pfd = { .fd = d->v->chans.fd, .events = POLLIN };

	for (;;) {
		if (poll(&pfd, 1, 100) < 0 && errno != EINTR)
			bench_die("poll");
		vsess_consume(d->v, d->sh);
		if (__atomic_load_n(&d->v->chans.ctrl->stopped, __ATOMIC_ACQUIRE)) {
			vsess_consume(d->v, d->sh);
			return NULL;
		}
	}
}

/* Has channel @ch room for @bytes more, by its producer and consumer positions? */
static int vchan_room(const struct bench_chan *ch, uint64_t bytes)
{
	uint64_t p = __atomic_load_n(&ch->desc->producer_pos, __ATOMIC_ACQUIRE);
	uint64_t c = __atomic_load_n(ch->cons, __ATOMIC_ACQUIRE);

	return p - c + bytes <= ch->desc->data_size;
}

static struct result vnpu_run(const struct cfg *c)
{
	struct shared sh = { .c = c };
	struct vnpu_prof_stop st = { .size = sizeof(st) };
	struct result r = { 0 };
	struct vsess v;
	struct vdrain d = { &v, &sh };
	pthread_t th;
	double t0, t;
	char buf[32];

	vsess_open(&v, c);
	if (pthread_create(&th, NULL, vsess_drain, &d))
		bench_die("pthread_create");
	t0 = bench_now();
	for (unsigned long i = 0; i < c->tasks;) {
		unsigned int n = c->tasks - i < c->batch ? (unsigned int)(c->tasks - i) : c->batch;
		int len = snprintf(buf, sizeof(buf), "%u", n);

		while (c->zero_loss &&
		       !(vchan_room(&v.chans.ch[VNPU_CH_ACSQ], 2ull * n * RT_ACSQ_SIZE) &&
			 (!c->level ||
			  vchan_room(&v.chans.ch[VNPU_CH_PMU], (uint64_t)n * RT_PMU_SIZE))))
			sched_yield();
		t = bench_now();
		if (write(v.bench_fd, buf, (size_t)len) != len) {
			if (errno == EINTR)
				continue;
			bench_die("write " BENCH_TASKS);
		}
		r.prod_secs += bench_now() - t;
		i += n;
	}
	if (ioctl(v.chans.fd, VNPU_IOC_PROF_STOP, &st))
		bench_die("VNPU_IOC_PROF_STOP");
	pthread_join(th, NULL);
	r.secs = bench_now() - t0;
	r.read = atomic_load(&sh.read);
	for (unsigned int i = 0; i < VNPU_CH_COUNT; i++) {
		r.lost += v.chans.ch[i].desc->lost;
		r.produced += v.chans.ch[i].desc->produced;
	}
	if (sh.bad) {
		fprintf(stderr, "ring_transport: vnpu: %llu malformed records\n",
			(unsigned long long)sh.bad);
		exit(1);
	}
	close(v.bench_fd);
	bench_chans_close(&v.chans);
	return r;
}

/* ---- the BPF ring buffer ---- */

static int bpf_sample(void *ctx, void *data, size_t size)
{
	struct shared *sh = ctx;
	unsigned int rec, n = bench_bpf_sample_records(data, size, &rec);

	if (!n) {
		sh->bad++;
		return 0;
	}
	for (unsigned int i = 0; i < n; i++)
		if (!bench_rec_ok((const char *)data + i * rec, rec, VNPU_MAX_HW_STREAMS - 1))
			sh->bad++;
	atomic_fetch_add(&sh->read, n);
	atomic_fetch_add(&sh->read_bytes, size + BPF_HDR);
	return 0;
}

struct bdrain {
	struct ring_buffer *rb;
	struct shared *sh;
};

static void *bpf_drain(void *arg)
{
	struct bdrain *d = arg;

	while (!atomic_load(&d->sh->done)) {
		int n = ring_buffer__poll(d->rb, 100);

		if (n < 0 && n != -EINTR)
			bench_die("ring_buffer__poll");
	}
	/* the last batch has returned: every record is in the ring */
	if (ring_buffer__consume(d->rb) < 0)
		bench_die("ring_buffer__consume");
	return NULL;
}

static struct result bpf_run(const struct cfg *c)
{
	/* as many bytes as the channels the records go to: ACSQ, and PMU at L1 */
	uint64_t ring = (uint64_t)c->pages * page_size() * (c->level ? 2 : 1);
	uint64_t per_task = 2 * RT_ACSQ_SIZE + BPF_HDR + (c->level ? RT_PMU_SIZE + BPF_HDR : 0);
	struct shared sh = { .c = c };
	struct result r = { 0 };
	struct ring_transport_bpf *obj;
	struct bdrain d = { .sh = &sh };
	struct rt_args a = { .level = (__u32)c->level,
			     .wakeup_bytes = c->mode == M_BPFWM ? ring / 2 : 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	uint64_t written = 0;
	pthread_t th;
	double t0, t;
	int prog;

	obj = ring_transport_bpf__open();
	if (!obj)
		bench_die("open the BPF object");
	bpf_map__set_max_entries(obj->maps.rb, (__u32)ring);
	if (ring_transport_bpf__load(obj))
		bench_die("load the BPF program");
	prog = bpf_program__fd(obj->progs.produce);
	d.rb = ring_buffer__new(bpf_map__fd(obj->maps.rb), bpf_sample, &sh, NULL);
	if (!d.rb)
		bench_die("ring_buffer__new");
	if (pthread_create(&th, NULL, bpf_drain, &d))
		bench_die("pthread_create");
	t0 = bench_now();
	for (unsigned long i = 0; i < c->tasks;) {
		unsigned int n = c->tasks - i < c->batch ? (unsigned int)(c->tasks - i) : c->batch;

		/* room by what was written and what the callback has read */
		while (c->zero_loss && written - atomic_load(&sh.read_bytes) + n * per_task > ring)
			sched_yield();
		a.tasks = n;
		a.first_id = i;
		obj->bss->args = a;
		t = bench_now();
		if (bpf_prog_test_run_opts(prog, &opts))
			bench_die("bpf_prog_test_run");
		r.prod_secs += bench_now() - t;
		if (opts.retval != n) {
			fprintf(stderr, "ring_transport: the BPF producer ran %d of %u tasks\n",
				(int)opts.retval, n);
			exit(1);
		}
		written += n * per_task;
		i += n;
	}
	atomic_store(&sh.done, 1);
	pthread_join(th, NULL);
	r.secs = bench_now() - t0;
	r.read = atomic_load(&sh.read);
	r.lost = obj->bss->dropped;
	r.produced = obj->bss->produced;
	if (sh.bad) {
		fprintf(stderr, "ring_transport: %s: %llu malformed records\n", mode_name[c->mode],
			(unsigned long long)sh.bad);
		exit(1);
	}
	ring_buffer__free(d.rb);
	ring_transport_bpf__destroy(obj);
	return r;
}

/* ---- one run, and the comparison ---- */

static struct result run_once(const struct cfg *c)
{
	struct result r = c->mode == M_VNPU ? vnpu_run(c) : bpf_run(c);
	uint64_t want = c->tasks * (c->level ? 3 : 2);

	if (r.read + r.lost != r.produced || r.produced != want || (c->zero_loss && r.lost)) {
		fprintf(stderr,
			"ring_transport: %s: accounting broken: %llu read + %llu lost, %llu "
			"produced, %llu expected%s\n",
			mode_name[c->mode], (unsigned long long)r.read, (unsigned long long)r.lost,
			(unsigned long long)r.produced, (unsigned long long)want,
			c->zero_loss && r.lost ? ", loss with backpressure" : "");
		exit(1);
	}
	printf("ring_transport: L%d %-5s %-9s pages=%u batch=%u: %lu tasks in %.3f s, "
	       "%llu records read (%.2f M/s), %llu lost, producer %.0f ns/record\n",
	       c->level, mode_name[c->mode], c->zero_loss ? "zero-loss" : "full-rate", c->pages,
	       c->batch, c->tasks, r.secs, (unsigned long long)r.read,
	       (double)r.read / r.secs / 1e6, (unsigned long long)r.lost,
	       r.prod_secs / (double)r.produced * 1e9);
	fflush(stdout);
	return r;
}

#define MAX_REPS 16

struct summary {
	double full[MAX_REPS]; /* records/s read, full rate */
	double zl[MAX_REPS]; /* records/s, zero loss */
	double prod_ns[MAX_REPS]; /* producer ns per record, zero loss */
	uint64_t lost, produced; /* full rate, over all reps */
};

static double ratio(double a, double b)
{
	return b > 0 ? a / b : -1;
}

static void compare(const struct cfg *base, int reps)
{
	struct summary s[M_COUNT] = { 0 };
	double full[M_COUNT], zl[M_COUNT], pns[M_COUNT];
	char a[96], b[96], bench[64];

	for (int k = 0; k < reps; k++) {
		for (int i = 0; i < M_COUNT; i++) {
			int m = (i + k) % M_COUNT;
			struct cfg c = *base;
			struct result r;

			c.mode = (enum mode)m;
			c.zero_loss = 0;
			r = run_once(&c);
			s[m].full[k] = (double)r.read / r.secs;
			s[m].lost += r.lost;
			s[m].produced += r.produced;
			c.zero_loss = 1;
			r = run_once(&c);
			s[m].zl[k] = (double)r.read / r.secs;
			s[m].prod_ns[k] = r.prod_secs / (double)r.produced * 1e9;
		}
	}
	for (int m = 0; m < M_COUNT; m++) {
		full[m] = bench_median(s[m].full, reps);
		zl[m] = bench_median(s[m].zl, reps);
		pns[m] = bench_median(s[m].prod_ns, reps);
	}
	snprintf(bench, sizeof(bench), "ring transport L%d %u KiB", base->level, base->pages * 4);
	snprintf(a, sizeof(a), "%.3f M/s", zl[M_VNPU] / 1e6);
	snprintf(b, sizeof(b), "%.3f M/s", zl[M_BPF] / 1e6);
	bench_row(bench, "records/s, zero loss, vs BPF ring", a, b, ratio(zl[M_VNPU], zl[M_BPF]),
		  ">= 2", ratio(zl[M_VNPU], zl[M_BPF]) >= 2);
	snprintf(b, sizeof(b), "%.3f M/s", zl[M_BPFWM] / 1e6);
	bench_row(bench, "records/s, zero loss, vs BPF ring with vnpu's wakeups", a, b,
		  ratio(zl[M_VNPU], zl[M_BPFWM]), NULL, 0);
	/* the producer's side alone: what a device pays per record */
	snprintf(a, sizeof(a), "%.0f ns", pns[M_VNPU]);
	snprintf(b, sizeof(b), "%.0f ns (vnpu wakeups: %.0f ns)", pns[M_BPF], pns[M_BPFWM]);
	bench_row(bench, "producer time per record, zero loss (BPF/vnpu)", a, b,
		  ratio(pns[M_BPF], pns[M_VNPU]), NULL, 0);
	snprintf(a, sizeof(a), "%.3f M/s", full[M_VNPU] / 1e6);
	snprintf(b, sizeof(b), "%.3f M/s", full[M_BPF] / 1e6);
	bench_row(bench, "records/s read, full rate, vs BPF ring", a, b,
		  ratio(full[M_VNPU], full[M_BPF]), NULL, 0);
	snprintf(a, sizeof(a), "%llu of %llu", (unsigned long long)s[M_VNPU].lost,
		 (unsigned long long)s[M_VNPU].produced);
	snprintf(b, sizeof(b), "%llu of %llu (vnpu wakeups: %llu)",
		 (unsigned long long)s[M_BPF].lost, (unsigned long long)s[M_BPF].produced,
		 (unsigned long long)s[M_BPFWM].lost);
	bench_row(bench, "records lost at full rate", a, b, -1, NULL, 0);
}

int main(int argc, char **argv)
{
	struct cfg c = { .tasks = 200000, .batch = 1024, .pages = 256 };
	int opt, reps = 3, want_level = -1;

	while ((opt = getopt(argc, argv, "n:b:p:r:l:")) != -1) {
		switch (opt) {
		case 'n':
			c.tasks = strtoul(optarg, NULL, 0);
			break;
		case 'b':
			c.batch = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'p':
			c.pages = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'r':
			reps = atoi(optarg);
			break;
		case 'l':
			want_level = atoi(optarg);
			break;
		default:
			fprintf(stderr,
				"usage: %s [-n tasks] [-b batch] [-p pages] [-r reps] [-l level]\n",
				argv[0]);
			return 2;
		}
	}
	/* a batch must fit in half a channel, so that backpressure can always make room */
	if (!c.tasks || !c.batch || !c.pages || (c.pages & (c.pages - 1)) || reps < 1 ||
	    reps > MAX_REPS || want_level > 1 ||
	    (uint64_t)c.batch * 2 * RT_ACSQ_SIZE > (uint64_t)c.pages * page_size() / 2) {
		fprintf(stderr, "ring_transport: bad arguments\n");
		return 2;
	}
	for (int level = 0; level <= 1; level++) {
		if (want_level >= 0 && level != want_level)
			continue;
		c.level = level;
		compare(&c, reps);
	}
	return 0;
}
