/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ring_bench and ring_transport, the reader's side: a session on
 * /dev/vnpu0 (VNPU_PROF_F_CHANNELS) mapped, each channel drained with
 * the ring's barrier contract (docs/ring.md), and the BPF ring's samples
 * of the same records told apart. Userspace only; every failure ends the
 * benchmark (bench_die()).
 */
#ifndef RING_CHANS_H
#define RING_CHANS_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/types.h>

#include "bench.h"
#include "vnpu.h"
#include "vnpu_prof.h"
#include "ring_records.h"

struct bench_chan {
	const struct vnpu_ring_chan *desc;
	uint64_t *cons;
	const unsigned char *data;
	uint64_t pos;
};

struct bench_chans {
	int fd;
	void *map;
	size_t map_size;
	const struct vnpu_ring_ctrl *ctrl;
	void *cons_page;
	struct bench_chan ch[VNPU_CH_COUNT];
};

/* Start a channel session at @level with @pages a channel, and map it. */
static inline void bench_chans_open(struct bench_chans *v, int level, unsigned int pages)
{
	struct vnpu_prof_start ps = { .size = sizeof(ps),
				      .flags = VNPU_PROF_F_CHANNELS,
				      .level = (__u32)level,
				      .ring_pages = pages };
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	v->fd = open("/dev/vnpu0", O_RDWR | O_CLOEXEC);
	if (v->fd < 0 || ioctl(v->fd, VNPU_IOC_PROF_START, &ps))
		bench_die("VNPU_IOC_PROF_START");
	v->map_size = ps.mmap_size;
	v->map = mmap(NULL, v->map_size, PROT_READ, MAP_SHARED, v->fd, 0);
	if (v->map == MAP_FAILED)
		bench_die("mmap");
	v->ctrl = v->map;
	if (v->ctrl->n_channels != VNPU_CH_COUNT) {
		fprintf(stderr, "%s: a session of %u channels, not %u\n",
			program_invocation_short_name, v->ctrl->n_channels,
			(unsigned int)VNPU_CH_COUNT);
		exit(1);
	}
	v->cons_page = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, v->fd,
			    (off_t)v->ctrl->cons_offset);
	if (v->cons_page == MAP_FAILED)
		bench_die("mmap consumer page");
	for (unsigned int i = 0; i < VNPU_CH_COUNT; i++) {
		struct bench_chan *ch = &v->ch[i];

		ch->desc = (const void *)((const char *)v->ctrl + v->ctrl->chan_offset +
					  i * sizeof(*ch->desc));
		ch->cons = (void *)((char *)v->cons_page + VNPU_RING_CHAN_CONS_OFFSET(i));
		ch->data = (const unsigned char *)v->map + ch->desc->data_offset;
		ch->pos = 0;
	}
}

static inline void bench_chans_close(struct bench_chans *v)
{
	munmap(v->cons_page, (size_t)sysconf(_SC_PAGESIZE));
	munmap(v->map, v->map_size);
	close(v->fd);
}

/*
 * Read every record of channel @i, counting in *@bad those @ok (given the
 * record, its size and the channel) rejects. Return: records read.
 */
static inline uint64_t bench_chan_consume(struct bench_chans *v, unsigned int i,
					  int (*ok)(const void *, unsigned int, unsigned int),
					  uint64_t *bad)
{
	struct bench_chan *ch = &v->ch[i];
	uint64_t mask = ch->desc->data_size - 1, c = ch->pos, n = 0;
	unsigned int size = ch->desc->rec_size;
	uint64_t p = __atomic_load_n(&ch->desc->producer_pos, __ATOMIC_ACQUIRE);

	for (; c != p; c += size, n++)
		if (!ok(ch->data + (c & mask), size, i))
			++*bad;
	__atomic_store_n(ch->cons, c, __ATOMIC_RELEASE);
	ch->pos = c;
	return n;
}

/*
 * An ACSQ log or a context PMU record as the device writes it (its magic
 * and function type); @stream: the stream it must name, or -1 for any.
 */
static inline int bench_rec_ok(const void *rec, unsigned int size, int stream)
{
	const struct rt_acsq *a = rec;
	unsigned int func = a->word0 & 0x3f;

	if (a->magic != RT_STARS_MAGIC || (stream >= 0 && a->stream_id != stream))
		return 0;
	return size == RT_ACSQ_SIZE ? func <= RT_FUNC_ACSQ_END : func == RT_FUNC_CONTEXT_PMU;
}

/*
 * The records of one BPF ring sample: an ACSQ pair and a PMU record are
 * both 128 B, so the first record's function type tells. Return: the
 * records in it (*@rec their size), or 0 if the sample is neither.
 */
static inline unsigned int bench_bpf_sample_records(const void *data, size_t size,
						    unsigned int *rec)
{
	const struct rt_acsq *first = data;
	int pmu = size >= sizeof(*first) && (first->word0 & 0x3f) == RT_FUNC_CONTEXT_PMU;
	unsigned int n = pmu ? 1 : 2;

	*rec = pmu ? RT_PMU_SIZE : RT_ACSQ_SIZE;
	return size == (size_t)n * *rec ? n : 0;
}

#endif /* RING_CHANS_H */
