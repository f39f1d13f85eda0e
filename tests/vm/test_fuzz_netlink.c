// SPDX-License-Identifier: GPL-2.0
/*
 * A seeded fuzzer for the generic netlink family "vnpu" (uapi/vnpu_nl.h,
 * docs/netlink.md), the family's counterpart of test_fuzz's ioctl fuzzer.
 *
 * Each step sends one datagram on a raw NETLINK_GENERIC socket, addressed
 * to the vnpu family only (never to another family: a corrupted length is
 * always followed by fewer bytes than a netlink header, so the kernel
 * cannot read a second message with a type of our making). Most steps
 * start from a valid request (DEV_GET do or dump, RESET_STATS) and corrupt
 * at most one thing: the command (unknown ones, notifications), the
 * netlink flags, the genetlink version and reserved byte, the message
 * length (shorter, longer, inside the genetlink header), or one attribute
 * (unknown types, UNSPEC, the nested and byte-order flags, every length
 * from 0 to 64, an nla_len past the end, trailing bytes, duplicates, ids
 * below, at and above the device count and VNPU_MAX_DEVICES). Some are
 * two requests in one datagram.
 * Meanwhile a child process starts and stops profiling sessions and runs
 * tasks, so that replies carry live session attributes and events flow to
 * a subscribed socket that never reads.
 *
 * genetlink handles a request inside sendmsg(), so every answer is queued
 * when it returns; the fuzzer then reads with MSG_DONTWAIT (a dump goes on
 * inside those reads) and checks, per step:
 *  - an error carries an errno docs/netlink.md lists (EINVAL, ERANGE,
 *    ENODEV, EPERM, EOPNOTSUPP; ENOMEM is always allowed; EBUSY for a
 *    dump behind a dump in the same datagram);
 *  - a valid request gets exactly its answer: DEV_GET of a device one
 *    reply with that id, of an id no device has -ENODEV, of an id >= 16
 *    -ERANGE; a dump one reply per device; RESET_STATS an ACK; an unknown
 *    command or a notification sent as a request -EOPNOTSUPP;
 *  - a nonzero reserved byte, a stray netlink flag or a header cut inside
 *    the genetlink header is -EINVAL; any other clear defect (a
 *    mis-sized, unknown or flagged attribute, trailing bytes) fails; a
 *    message longer than the datagram, or not a request, gets no answer;
 *  - every answer carries the sequence number of a request sent, and
 *    every reply parses: known attribute types only, each of its
 *    documented size, strings terminated, device ids below the device
 *    count;
 *  - a quarter of the steps run as nobody: RESET_STATS never succeeds.
 * Afterwards the family still lists every device and the module unloads.
 */
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <grp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include "kselftest_harness.h"
#include "vm/vnpu_test.h"
#include "vnpu_nl.h"

#define NLFUZZ_QUICK 10000 /* about 8 s on Debian's kernel */
#define NLFUZZ_FULL 200000
#define NLFUZZ_DEFAULT_SEED 0x6e6c667aul /* "nlfz" */
#define MSG_MAX 1024
#define LOG_MAX 16 /* problems reported in full */
#define NERR 150

/* ---- the generator ---- */

struct nlfz {
	__u64 rng;
	int sk;
	__u16 family;
	unsigned int ndev;
	__u32 seq;
	int unprivileged;
	/* the step being checked */
	unsigned long step;
	const char *what;
	/* what was seen */
	unsigned long sent, ok, rejected, silent, replies, undocumented, violations;
	unsigned long resets_refused;
	unsigned long err_hist[NERR];
};

/* A device id worth trying: the edges of the device count and the policy. */
static __u32 rnd_dev_id(struct nlfz *z)
{
	switch (vnpu_rnd(&z->rng, 8)) {
	case 0:
		return z->ndev;
	case 1:
		return VNPU_MAX_DEVICES - 1;
	case 2:
		return VNPU_MAX_DEVICES;
	case 3:
		return vnpu_rnd(&z->rng, 2) ? UINT32_MAX : 0x80000000u;
	case 4:
		return (__u32)vnpu_rnd64(&z->rng);
	default:
		return vnpu_rnd(&z->rng, z->ndev);
	}
}

/* What a request was built to be, and so what its answer must be. */
enum expect {
	EXP_ANY, /* corrupted in a way the kernel may take or not */
	EXP_FAIL, /* a clear defect: must be rejected */
	EXP_SILENT, /* longer than the datagram: no answer at all */
	EXP_IGNORED, /* not a request: at most an ACK of 0, no reply */
	EXP_GET, /* DEV_GET of one device: one reply with its id, then 0 */
	EXP_DUMP, /* DEV_GET dump: one reply per device, then DONE */
	EXP_ACK, /* RESET_STATS as root: an ACK of 0, no reply */
	EXP_ERRNO, /* exactly expect_err */
};

struct req {
	unsigned char buf[MSG_MAX] __attribute__((aligned(4)));
	size_t len; /* bytes sent */
	enum expect expect;
	int expect_err;
	__u32 dev; /* EXP_GET */
	__u32 seq; /* of the (first) message */
	int reset; /* the first message is a RESET_STATS request the kernel reads */
	int dump_first; /* a second request follows a dump in the same datagram */
};

static struct nlmsghdr *put_header(struct nlfz *z, struct req *r, __u8 cmd, __u16 flags)
{
	struct nlmsghdr *nlh = (void *)(r->buf + r->len);
	struct genlmsghdr *g = NLMSG_DATA(nlh);

	memset(nlh, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	nlh->nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	nlh->nlmsg_type = z->family;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++z->seq;
	g->cmd = cmd;
	g->version = VNPU_GENL_VERSION;
	r->len += nlh->nlmsg_len;
	return nlh;
}

/* Append an attribute of @len payload bytes (padded) to @nlh; its payload. */
static void *put_attr(struct req *r, struct nlmsghdr *nlh, __u16 type, unsigned int len)
{
	struct nlattr *a = (void *)(r->buf + r->len);
	unsigned int total = NLA_ALIGN(NLA_HDRLEN + len);

	if (r->len + total > sizeof(r->buf))
		return NULL;
	memset(a, 0, total);
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	r->len += total;
	nlh->nlmsg_len += total;
	return (char *)a + NLA_HDRLEN;
}

static void put_u32(struct req *r, struct nlmsghdr *nlh, __u16 type, __u32 v)
{
	void *p = put_attr(r, nlh, type, 4);

	if (p)
		memcpy(p, &v, 4);
}

/* The answer a DEV_GET of @id must get (RESET_STATS: an ACK for EXP_GET). */
static void expect_for_id(struct nlfz *z, struct req *r, __u32 id)
{
	if (id >= VNPU_MAX_DEVICES) {
		r->expect = EXP_ERRNO;
		r->expect_err = -ERANGE;
	} else if (id >= z->ndev) {
		r->expect = EXP_ERRNO;
		r->expect_err = -ENODEV;
	} else {
		r->expect = EXP_GET;
		r->dev = id;
	}
}

/* A valid request of a random kind, with its expected answer. */
static struct nlmsghdr *valid_request(struct nlfz *z, struct req *r)
{
	struct nlmsghdr *nlh;
	__u32 id = rnd_dev_id(z);

	switch (vnpu_rnd(&z->rng, 6)) {
	case 0:
		z->what = "DEV_GET dump";
		nlh = put_header(z, r, VNPU_CMD_DEV_GET, NLM_F_DUMP);
		r->expect = EXP_DUMP;
		return nlh;
	case 1:
		z->what = "RESET_STATS";
		nlh = put_header(z, r, VNPU_CMD_RESET_STATS, NLM_F_ACK);
		put_u32(r, nlh, VNPU_A_DEV_ID, id);
		if (z->unprivileged) {
			r->expect = EXP_ERRNO;
			r->expect_err = -EPERM;
		} else {
			expect_for_id(z, r, id);
			if (r->expect == EXP_GET)
				r->expect = EXP_ACK;
		}
		return nlh;
	case 2:
		z->what = "unknown command or notification";
		nlh = put_header(z, r,
				 vnpu_rnd(&z->rng, 2)
					 ? VNPU_CMD_SESSION_STARTED + vnpu_rnd(&z->rng, 4)
					 : (vnpu_rnd(&z->rng, 2)
						    ? 0
						    : VNPU_CMD_MAX + 1 + vnpu_rnd(&z->rng, 250)),
				 NLM_F_ACK | (vnpu_rnd(&z->rng, 2) ? NLM_F_DUMP : 0));
		r->expect = EXP_ERRNO;
		r->expect_err = -EOPNOTSUPP;
		return nlh;
	default:
		z->what = "DEV_GET";
		nlh = put_header(z, r, VNPU_CMD_DEV_GET, NLM_F_ACK);
		put_u32(r, nlh, VNPU_A_DEV_ID, id);
		expect_for_id(z, r, id);
		return nlh;
	}
}

/* One attribute of a random type, flags and size, to @nlh. */
static int put_bad_attr(struct nlfz *z, struct req *r, struct nlmsghdr *nlh)
{
	static const unsigned int lens[] = { 0, 1, 2, 3, 5, 6, 7, 8, 12, 16, 63, 64 };
	__u16 type;
	unsigned int len;
	unsigned char *p;
	int defect = 0;

	switch (vnpu_rnd(&z->rng, 6)) {
	case 0:
		type = VNPU_A_UNSPEC;
		defect = 1;
		break;
	case 1:
		type = VNPU_A_MAX + 1 + vnpu_rnd(&z->rng, 40);
		defect = 1;
		break;
	case 2:
		type = VNPU_A_DEV_ID + 1 +
		       vnpu_rnd(&z->rng, VNPU_A_MAX); /* not taken by requests */
		defect = 1;
		break;
	case 3:
		type = (__u16)vnpu_rnd64(&z->rng);
		defect = (type & NLA_TYPE_MASK) != VNPU_A_DEV_ID;
		break;
	default:
		type = VNPU_A_DEV_ID;
		break;
	}
	if (vnpu_chance(&z->rng, 20))
		type |= NLA_F_NESTED;
	if (type & NLA_F_NESTED) /* no attribute of the family is nested */
		defect = 1;
	if (vnpu_chance(&z->rng, 10))
		type |= NLA_F_NET_BYTEORDER;
	len = vnpu_chance(&z->rng, 50) ? 4
				       : lens[vnpu_rnd(&z->rng, sizeof(lens) / sizeof(lens[0]))];
	if ((type & NLA_TYPE_MASK) == VNPU_A_DEV_ID && len != 4)
		defect = 1;
	p = put_attr(r, nlh, type, len);
	if (!p)
		return 0;
	for (unsigned int i = 0; i < len; i++)
		p[i] = (unsigned char)vnpu_rnd64(&z->rng);
	if (len == 4 && vnpu_chance(&z->rng, 70)) {
		__u32 id = rnd_dev_id(z);

		memcpy(p, &id, 4);
	}
	return defect;
}

/* Build step @z->step's datagram into @r. */
static void build(struct nlfz *z, struct req *r)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	int defect = 0;

	r->len = 0;
	r->expect = EXP_ANY;
	r->expect_err = 0;
	r->dump_first = 0;
	nlh = valid_request(z, r);
	r->seq = nlh->nlmsg_seq;
	g = NLMSG_DATA(nlh);

	switch (vnpu_rnd(&z->rng, 12)) {
	case 0:
	case 1:
	case 2:
	case 3: /* valid as built */
		break;
	case 4: /* attributes */
	case 5:
		z->what = "bad attribute";
		for (unsigned int n = 1 + vnpu_rnd(&z->rng, 3); n; n--)
			defect |= put_bad_attr(z, r, nlh);
		if (g->cmd == VNPU_CMD_DEV_GET || g->cmd == VNPU_CMD_RESET_STATS)
			r->expect = defect && !z->unprivileged ? EXP_FAIL : EXP_ANY;
		else
			r->expect = EXP_ANY; /* the command is refused first */
		break;
	case 6: /* trailing bytes shorter than an attribute header */
		z->what = "trailing bytes";
		if (g->cmd == VNPU_CMD_DEV_GET && !(nlh->nlmsg_flags & NLM_F_DUMP)) {
			unsigned int extra = 1 + vnpu_rnd(&z->rng, NLA_HDRLEN - 1);

			memset(r->buf + r->len, 0xab, extra);
			r->len += extra;
			nlh->nlmsg_len += extra;
			r->expect = EXP_FAIL;
		}
		break;
	case 7: /* an nla_len past the end of the message */
		z->what = "attribute longer than the message";
		if (g->cmd == VNPU_CMD_DEV_GET && !(nlh->nlmsg_flags & NLM_F_DUMP)) {
			struct nlattr *a = (void *)((char *)g + GENL_HDRLEN);

			a->nla_len += NLA_ALIGNTO * (1 + vnpu_rnd(&z->rng, 8));
			r->expect = EXP_FAIL;
		}
		break;
	case 8: /* the genetlink header */
		z->what = "genetlink header";
		if (vnpu_chance(&z->rng, 50)) {
			g->reserved = 1 + vnpu_rnd(&z->rng, 255);
			/* the header is checked before the attributes */
			if (g->cmd == VNPU_CMD_DEV_GET ||
			    (g->cmd == VNPU_CMD_RESET_STATS && !z->unprivileged)) {
				r->expect = EXP_ERRNO;
				r->expect_err = -EINVAL;
			} else {
				r->expect = EXP_ANY;
			}
		} else {
			g->version = (__u8)vnpu_rnd64(&z->rng); /* not checked: the answer stands */
		}
		break;
	case 9: /* the netlink length */
		z->what = "message length";
		if (vnpu_chance(&z->rng, 50)) {
			/* longer than the datagram: dropped without an answer */
			nlh->nlmsg_len = r->len + NLA_ALIGNTO * (1 + vnpu_rnd(&z->rng, 64));
			r->expect = EXP_SILENT;
		} else if (vnpu_chance(&z->rng, 50) && r->len > NLMSG_HDRLEN + GENL_HDRLEN) {
			/* cut inside the attributes; what follows is too short to parse */
			unsigned int cut = NLMSG_HDRLEN + GENL_HDRLEN +
					   vnpu_rnd(&z->rng, r->len - NLMSG_HDRLEN - GENL_HDRLEN);

			nlh->nlmsg_len = cut;
			r->len = NLMSG_ALIGN(cut) + vnpu_rnd(&z->rng, NLMSG_HDRLEN);
			r->expect = EXP_ANY;
		} else {
			/* inside the genetlink header */
			nlh->nlmsg_len = NLMSG_HDRLEN + vnpu_rnd(&z->rng, GENL_HDRLEN);
			r->len = NLMSG_ALIGN(nlh->nlmsg_len) + vnpu_rnd(&z->rng, NLMSG_HDRLEN);
			r->expect = EXP_ERRNO; /* before anything else is looked at */
			r->expect_err = -EINVAL;
		}
		break;
	case 10: /* the netlink flags */
		z->what = "netlink flags";
		{
			__u16 bit = 1u << vnpu_rnd(&z->rng, 16);

			nlh->nlmsg_flags ^= bit;
			if (!(nlh->nlmsg_flags & NLM_F_REQUEST)) {
				r->expect = EXP_IGNORED;
			} else if (!(bit & (NLM_F_ACK | NLM_F_ECHO)) &&
				   (g->cmd == VNPU_CMD_DEV_GET ||
				    (g->cmd == VNPU_CMD_RESET_STATS && !z->unprivileged))) {
				/* strict: only REQUEST, ACK, ECHO and both DUMP bits */
				r->expect = EXP_ERRNO;
				r->expect_err = -EINVAL;
			} else {
				r->expect = EXP_ANY;
			}
			break;
		}
	default: /* a second, valid request in the same datagram */
		r->dump_first = (nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
		valid_request(z, r);
		z->what = "two requests";
		r->expect = EXP_ANY;
		break;
	}
	r->reset = g->cmd == VNPU_CMD_RESET_STATS && (nlh->nlmsg_flags & NLM_F_REQUEST) &&
		   nlh->nlmsg_len <= r->len;
}

/* ---- the oracle ---- */

static void problem(struct nlfz *z, int undocumented, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void problem(struct nlfz *z, int undocumented, const char *fmt, ...)
{
	unsigned long n = z->undocumented + z->violations;
	va_list ap;

	if (undocumented)
		z->undocumented++;
	else
		z->violations++;
	if (n >= LOG_MAX)
		return;
	printf("# step %lu (%s%s): ", z->step, z->what, z->unprivileged ? ", as nobody" : "");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static int documented(int err)
{
	static const int doc[] = { EINVAL, ERANGE, ENODEV, EPERM, EOPNOTSUPP, ENOMEM };

	for (unsigned int i = 0; i < sizeof(doc) / sizeof(doc[0]); i++)
		if (-err == doc[i])
			return 1;
	return 0;
}

/* The documented wire size of a reply attribute; -1 for a string, 0 PAD. */
static int attr_size(unsigned int type)
{
	switch (type) {
	case VNPU_A_PAD:
		return 0;
	case VNPU_A_DEV_PRODUCT_NAME:
	case VNPU_A_DEV_CHIP_NAME:
		return -1;
	case VNPU_A_TASKS_RUN:
	case VNPU_A_TASKS_PENDING:
	case VNPU_A_RECORDS_PRODUCED:
	case VNPU_A_RECORDS_LOST:
	case VNPU_A_RING_SIZE:
	case VNPU_A_RING_USED:
		return 8;
	default:
		return 4;
	}
}

/* Check one DEV_GET reply; its device id, or -1 after reporting why not. */
static long check_reply(struct nlfz *z, const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	const struct nlattr *a;
	long id = -1;
	int rem;

	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN || g->cmd != VNPU_CMD_DEV_GET) {
		problem(z, 0, "reply of %u bytes, command %u", nlh->nlmsg_len, g->cmd);
		return -1;
	}
	a = (const void *)((const char *)g + GENL_HDRLEN);
	rem = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	for (; rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= rem;
	     rem -= NLA_ALIGN(a->nla_len),
	     a = (const void *)((const char *)a + NLA_ALIGN(a->nla_len))) {
		unsigned int type = a->nla_type, len = a->nla_len - NLA_HDRLEN;
		const char *p = (const char *)a + NLA_HDRLEN;
		int want = attr_size(type);

		if (type == VNPU_A_UNSPEC || type > VNPU_A_MAX) {
			problem(z, 0, "reply attribute of type %#x", type);
			return -1;
		}
		if ((want >= 0 && len != (unsigned int)want) ||
		    (want < 0 && (len == 0 || memchr(p, 0, len) != p + len - 1))) {
			problem(z, 0, "reply attribute %u of %u bytes", type, len);
			return -1;
		}
		if (type == VNPU_A_DEV_ID) {
			__u32 v;

			memcpy(&v, p, 4);
			id = v;
		}
	}
	if (rem > 0 && rem != (int)(NLA_ALIGN(rem) - rem)) {
		problem(z, 0, "reply with %d bytes that are not an attribute", rem);
		return -1;
	}
	if (id < 0 || id >= z->ndev) {
		problem(z, 0, "reply for device %ld of %u", id, z->ndev);
		return -1;
	}
	return id;
}

/* Everything the kernel answered to @r, checked against what it must be. */
static void collect(struct nlfz *z, const struct req *r)
{
	static unsigned char buf[65536] __attribute__((aligned(4)));
	int err = 1; /* no error/ack/done yet */
	unsigned long replies = 0, answers = 0;
	long last_id = -1;
	ssize_t n;

	while ((n = recv(z->sk, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
		const struct nlmsghdr *nlh = (const void *)buf;
		int len = n;

		for (; NLMSG_OK(nlh, len); nlh = NLMSG_NEXT(nlh, len)) {
			answers++;
			if (nlh->nlmsg_seq < r->seq || nlh->nlmsg_seq > z->seq)
				problem(z, 0, "answer with seq %u, sent %u..%u", nlh->nlmsg_seq,
					r->seq, z->seq);
			if (nlh->nlmsg_type == NLMSG_ERROR || nlh->nlmsg_type == NLMSG_DONE) {
				int e = 0;

				if (nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(int)))
					memcpy(&e, NLMSG_DATA(nlh), sizeof(e));
				if (nlh->nlmsg_seq == r->seq)
					err = e;
				/*
				 * The netlink core runs one dump per socket
				 * at a time: EBUSY for a dump behind a dump.
				 */
				int busy = e == -EBUSY && r->dump_first && nlh->nlmsg_seq != r->seq;

				if (!busy && (e > 0 || (e < 0 && !documented(e))))
					problem(z, 1, "errno %d (%s)", -e,
						strerror(e < 0 ? -e : e));
				if (e < 0 && -e < NERR)
					z->err_hist[-e]++;
			} else if (nlh->nlmsg_type == z->family) {
				if (nlh->nlmsg_seq == r->seq) {
					replies++;
					last_id = check_reply(z, nlh);
				} else {
					check_reply(z, nlh);
				}
			} else {
				problem(z, 0, "answer of type %u", nlh->nlmsg_type);
			}
		}
	}
	if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
		problem(z, 0, "recv: %s", strerror(errno));
	z->replies += replies;
	if (answers == 0)
		z->silent++;
	else if (err < 0)
		z->rejected++;
	else
		z->ok++;

	switch (r->expect) {
	case EXP_ANY:
		break;
	case EXP_SILENT:
		if (answers)
			problem(z, 0, "%lu answers to a message longer than its datagram", answers);
		break;
	case EXP_IGNORED:
		if (replies || err < 0)
			problem(z, 0, "a message that is not a request: error %d, %lu replies", err,
				replies);
		break;
	case EXP_FAIL:
		if (err >= 0)
			problem(z, 0, "a defective request was not refused: %s, %lu replies",
				err == 0 ? "accepted" : "no answer", replies);
		break;
	case EXP_GET:
		if (err != 0 || replies != 1 || last_id != (long)r->dev)
			problem(z, 0, "DEV_GET %u: error %d, %lu replies, last id %ld", r->dev, err,
				replies, last_id);
		break;
	case EXP_DUMP:
		if (err != 0 || replies != z->ndev)
			problem(z, 0, "dump: error %d, %lu replies for %u devices", err, replies,
				z->ndev);
		break;
	case EXP_ACK:
		if (err != 0 || replies)
			problem(z, 0, "RESET_STATS: error %d, %lu replies", err, replies);
		break;
	case EXP_ERRNO:
		if (err != r->expect_err)
			problem(z, 0, "error %d, expected %d", err, r->expect_err);
		break;
	}
	/* the one rule that must hold whatever was corrupted */
	if (z->unprivileged && r->reset && err == 0)
		problem(z, 0, "nobody's RESET_STATS was acknowledged");
	if (z->unprivileged && err == -EPERM)
		z->resets_refused++;
}

static void run_steps(struct nlfz *z, unsigned long from, unsigned long to)
{
	static struct req r;

	for (z->step = from; z->step < to; z->step++) {
		ssize_t n;

		build(z, &r);
		n = send(z->sk, r.buf, r.len, 0);
		z->sent++;
		if (n < 0) {
			problem(z, 0, "send of %zu bytes: %s", r.len, strerror(errno));
			continue;
		}
		collect(z, &r);
	}
}

/* ---- setup ---- */

static int nl_open(__u16 *family, int *events_grp)
{
	struct nl_sock *ns = nl_socket_alloc();
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int id, grp = -1, sk;
	int one = 1, big = 1 << 20;

	if (!ns || genl_connect(ns) < 0) {
		nl_socket_free(ns);
		return -1;
	}
	id = genl_ctrl_resolve(ns, VNPU_GENL_NAME);
	if (events_grp)
		grp = genl_ctrl_resolve_grp(ns, VNPU_GENL_NAME, VNPU_GENL_MCGRP_EVENTS);
	nl_socket_free(ns);
	if (id < 0 || (events_grp && grp < 0))
		return -1;
	*family = id;
	if (events_grp)
		*events_grp = grp;
	sk = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (sk < 0)
		return -1;
	if (bind(sk, (struct sockaddr *)&sa, sizeof(sa))) {
		close(sk);
		return -1;
	}
	/* extended ACKs, as libnpuprof's client asks for; a dump needs room */
	setsockopt(sk, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(sk, SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
	return sk;
}

/* Sessions and tasks on every device, over and over, until killed. */
static void churn(unsigned int ndev)
{
	static struct vnpu_task t[16];

	for (unsigned long i = 0;; i++) {
		int fd = vnpu_open_dev(i % ndev, O_RDWR), s;
		struct vnpu_prof_start ps;

		if (fd < 0)
			_exit(10);
		s = vnpu_stream_new(fd);
		if (s >= 0) {
			for (int k = 0; k < 16; k++)
				vnpu_task_init(&t[k], "Add_1", "Add", VNPU_TASK_AI_CORE, s, 1 << 12,
					       1 << 12);
			vnpu_prof_start(fd, i % 3 ? VNPU_PROF_L1 : VNPU_PROF_L0, -1, 1, 0, &ps);
			vnpu_submit_tasks(fd, t, 16, NULL);
			vnpu_sync_stream(fd, s, 0, 1000, NULL);
		}
		close(fd); /* ends the session: SESSION_STOPPED */
	}
}

/* After the fuzzing: a plain dump lists every device; 0 or a violation count. */
static unsigned long final_dump(struct nlfz *z)
{
	static struct req r;
	struct nlmsghdr *nlh;
	unsigned long before = z->violations;

	z->what = "final dump";
	r.len = 0;
	nlh = put_header(z, &r, VNPU_CMD_DEV_GET, NLM_F_DUMP);
	r.seq = nlh->nlmsg_seq;
	r.expect = EXP_DUMP;
	r.reset = 0;
	r.dump_first = 0;
	if (send(z->sk, r.buf, r.len, 0) != (ssize_t)r.len)
		return 1;
	collect(z, &r);
	return z->violations - before;
}

/* plain TEST()s time out after 30 s; make stress's count takes minutes */
FIXTURE(fuzz)
{
	int unused;
};

FIXTURE_SETUP(fuzz)
{
}

FIXTURE_TEARDOWN(fuzz)
{
}

TEST_F_TIMEOUT(fuzz, netlink, 1800)
{
	unsigned long steps = vnpu_stress_count(NLFUZZ_QUICK, NLFUZZ_FULL), quarter;
	struct nlfz *z, *zu;
	int grp, listener, status, ret = 0;
	__u64 seed = vnpu_fuzz_seed(NLFUZZ_DEFAULT_SEED);
	pid_t churner, pid;
	double t0, t1;

	z = mmap(NULL, 2 * sizeof(*z), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, z);
	zu = z + 1;
	memset(z, 0, 2 * sizeof(*z));
	z->ndev = vnpu_param_devices();
	ASSERT_GT(z->ndev, 0);
	z->rng = seed;
	TH_LOG("seed %llu (VNPU_FUZZ_SEED=%llu replays it), %lu messages",
	       (unsigned long long)seed, (unsigned long long)seed, steps);

	/* a subscriber that never reads: events overflow its buffer */
	listener = nl_open(&z->family, &grp);
	ASSERT_GE(listener, 0);
	ASSERT_EQ(0, setsockopt(listener, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp)));
	z->sk = nl_open(&z->family, NULL);
	ASSERT_GE(z->sk, 0);

	fflush(stdout);
	churner = fork();
	ASSERT_GE(churner, 0);
	if (churner == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		churn(z->ndev);
	}

	t0 = vnpu_now_s();
	quarter = steps / 4;
	/* a quarter as nobody, in a child with its own socket and stream */
	*zu = *z; /* before the fork: z is shared and about to change */
	zu->rng = seed ^ 0x6e6f626f6479ull; /* "nobody" */
	zu->unprivileged = 1;
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		close(zu->sk);
		if (vnpu_become_nobody(0))
			_exit(10);
		zu->sk = nl_open(&zu->family, NULL);
		if (zu->sk < 0)
			_exit(11);
		run_steps(zu, 0, quarter);
		fflush(stdout);
		_exit(0);
	}
	run_steps(z, quarter, steps);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
	TH_LOG("the unprivileged child: status %#x (10 drop, 11 socket)", status);
	t1 = vnpu_now_s();
	kill(churner, SIGKILL);
	waitpid(churner, &status, 0);

	for (int e = 1; e < NERR; e++)
		if (z->err_hist[e] + zu->err_hist[e])
			printf("# errno %s: %lu\n", strerrorname_np(e) ?: "?",
			       z->err_hist[e] + zu->err_hist[e]);
	vnpu_figure("fuzz",
		    "netlink_messages=%lu ok=%lu rejected=%lu silent=%lu replies=%lu "
		    "unprivileged=%lu resets_refused=%lu undocumented=%lu violations=%lu "
		    "seconds=%.1f seed=%llu",
		    z->sent + zu->sent, z->ok + zu->ok, z->rejected + zu->rejected,
		    z->silent + zu->silent, z->replies + zu->replies, zu->sent, zu->resets_refused,
		    z->undocumented + zu->undocumented, z->violations + zu->violations, t1 - t0,
		    (unsigned long long)seed);
	EXPECT_EQ(steps, z->sent + zu->sent);
	EXPECT_EQ(0, z->undocumented + zu->undocumented);
	EXPECT_EQ(0, z->violations + zu->violations);
	EXPECT_GT(zu->resets_refused, 0);

	/* the family still lists every device */
	EXPECT_EQ(0, final_dump(z));
	close(z->sk);
	close(listener);

	/* and the module unloads: no socket or dump holds it */
	if (getenv("VNPU_KO")) {
		ret = vnpu_module_unload_settled();
		EXPECT_EQ(0, ret) TH_LOG("unload: %s", strerror(-ret));
		ASSERT_EQ(0, vnpu_module_restore());
	}
	munmap(z, 2 * sizeof(*z));
}

TEST_HARNESS_MAIN
