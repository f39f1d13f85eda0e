// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: the generic netlink client of the "vnpu" family (see
 * npuprof_nl.h and docs/netlink.md), on libnl-genl-3.
 *
 * Requests go out on one socket and are answered on it: a reply (or a
 * dump's messages) and then an ACK or an error. The socket asks for
 * extended ACKs, so an error carries the kernel's message, which goes into
 * struct npuprof_error. Events come on a second socket, joined to the
 * "events" group and read without blocking after poll(), so that a timeout
 * and a receive-buffer overrun (ENOBUFS) are both seen as such.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#include "core/core.h"
#include "npuprof_nl.h"
#include "vnpu_nl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* Events parsed from one datagram and not yet returned. */
#define NL_EVQ_LEN 32
/* Event messages are a few hundred bytes; a datagram holds one. */
#define NL_EVBUF_LEN 8192
#define NL_EXT_MSG_LEN 128

struct npuprof_nl {
	struct nl_sock *sk;
	struct nl_sock *ev_sk;
	int family;
	unsigned int evq_head, evq_len;
	struct npuprof_nl_event evq[NL_EVQ_LEN];
	unsigned char evbuf[NL_EVBUF_LEN];
};

/* How userspace checks what the kernel sends (unknown attributes are skipped). */
static struct nla_policy vnpu_nl_policy[VNPU_A_MAX + 1] = {
	[VNPU_A_DEV_ID] = { .type = NLA_U32 },
	[VNPU_A_DEV_PRODUCT] = { .type = NLA_U32 },
	[VNPU_A_DEV_PRODUCT_NAME] = { .type = NLA_STRING },
	[VNPU_A_DEV_CHIP_NAME] = { .type = NLA_STRING },
	[VNPU_A_DEV_CHIP_ID] = { .type = NLA_U32 },
	[VNPU_A_DEV_AIC_NUM] = { .type = NLA_U32 },
	[VNPU_A_DEV_AIV_NUM] = { .type = NLA_U32 },
	[VNPU_A_DEV_AICPU_NUM] = { .type = NLA_U32 },
	[VNPU_A_DEV_AIC_FREQ_KHZ] = { .type = NLA_U32 },
	[VNPU_A_DEV_SYS_CNT_FREQ_KHZ] = { .type = NLA_U32 },
	[VNPU_A_PROF_ACTIVE] = { .type = NLA_U32 },
	[VNPU_A_PROF_SESSION] = { .type = NLA_U32 },
	[VNPU_A_PROF_LEVEL] = { .type = NLA_U32 },
	[VNPU_A_PROF_METRIC_GROUP] = { .type = NLA_U32 },
	[VNPU_A_TASKS_RUN] = { .type = NLA_U64 },
	[VNPU_A_TASKS_PENDING] = { .type = NLA_U64 },
	[VNPU_A_RECORDS_PRODUCED] = { .type = NLA_U64 },
	[VNPU_A_RECORDS_LOST] = { .type = NLA_U64 },
	[VNPU_A_RING_SIZE] = { .type = NLA_U64 },
	[VNPU_A_RING_USED] = { .type = NLA_U64 },
};

/* A libnl error code (negative NLE_*) as a negative errno. */
static int nle_to_errno(int nle)
{
	switch (nle < 0 ? -nle : nle) {
	case NLE_SUCCESS:
		return 0;
	case NLE_INTR:
	case NLE_DUMP_INTR:
		return -EINTR;
	case NLE_AGAIN:
		return -EAGAIN;
	case NLE_BAD_SOCK:
		return -EBADF;
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_EXIST:
		return -EEXIST;
	case NLE_INVAL:
	case NLE_RANGE:
		return -EINVAL;
	case NLE_MSGSIZE:
		return -EMSGSIZE;
	case NLE_OPNOTSUPP:
		return -EOPNOTSUPP;
	case NLE_AF_NOSUPPORT:
		return -EAFNOSUPPORT;
	case NLE_OBJ_NOTFOUND:
		return -ENOENT;
	case NLE_NOACCESS:
		return -EACCES;
	case NLE_PERM:
		return -EPERM;
	case NLE_BUSY:
		return -EBUSY;
	case NLE_PROTO_MISMATCH:
	case NLE_NOADDR:
		return -EADDRNOTAVAIL;
	case NLE_NODEV:
		return -ENODEV;
	case NLE_MSG_TRUNC:
	case NLE_MSG_TOOSHORT:
	case NLE_MSGTYPE_NOSUPPORT:
	case NLE_SEQ_MISMATCH:
	case NLE_MSG_OVERFLOW:
	case NLE_PARSE_ERR:
		return -EPROTO;
	default:
		return -EIO;
	}
}

static uint32_t get_u32(struct nlattr **tb, int type)
{
	return tb[type] ? nla_get_u32(tb[type]) : 0;
}

static uint64_t get_u64(struct nlattr **tb, int type)
{
	return tb[type] ? nla_get_u64(tb[type]) : 0;
}

static void get_str(struct nlattr **tb, int type, char *dst, size_t len)
{
	dst[0] = '\0';
	if (tb[type])
		nla_strlcpy(dst, tb[type], len);
}

/* Parse a "vnpu" message of @nlh into @tb; 0 or a negative NLE_* code. */
static int parse_msg(struct nlmsghdr *nlh, struct nlattr **tb)
{
	return genlmsg_parse(nlh, 0, tb, VNPU_A_MAX, vnpu_nl_policy);
}

static void fill_dev(struct nlattr **tb, struct npuprof_nl_dev *d)
{
	memset(d, 0, sizeof(*d));
	d->id = get_u32(tb, VNPU_A_DEV_ID);
	d->product = get_u32(tb, VNPU_A_DEV_PRODUCT);
	d->chip_id = get_u32(tb, VNPU_A_DEV_CHIP_ID);
	d->aic_num = get_u32(tb, VNPU_A_DEV_AIC_NUM);
	d->aiv_num = get_u32(tb, VNPU_A_DEV_AIV_NUM);
	d->aicpu_num = get_u32(tb, VNPU_A_DEV_AICPU_NUM);
	d->aic_freq_khz = get_u32(tb, VNPU_A_DEV_AIC_FREQ_KHZ);
	d->sys_cnt_freq_khz = get_u32(tb, VNPU_A_DEV_SYS_CNT_FREQ_KHZ);
	get_str(tb, VNPU_A_DEV_PRODUCT_NAME, d->product_name, sizeof(d->product_name));
	get_str(tb, VNPU_A_DEV_CHIP_NAME, d->chip_name, sizeof(d->chip_name));
	d->prof_active = get_u32(tb, VNPU_A_PROF_ACTIVE);
	d->prof_session = get_u32(tb, VNPU_A_PROF_SESSION);
	d->prof_level = get_u32(tb, VNPU_A_PROF_LEVEL);
	d->prof_group = get_u32(tb, VNPU_A_PROF_METRIC_GROUP);
	d->tasks_run = get_u64(tb, VNPU_A_TASKS_RUN);
	d->tasks_pending = get_u64(tb, VNPU_A_TASKS_PENDING);
	d->records_produced = get_u64(tb, VNPU_A_RECORDS_PRODUCED);
	d->records_lost = get_u64(tb, VNPU_A_RECORDS_LOST);
	d->ring_size = get_u64(tb, VNPU_A_RING_SIZE);
	d->ring_used = get_u64(tb, VNPU_A_RING_USED);
}

/* ---- requests ---- */

/**
 * struct nl_req - one request being answered
 * @done: the ACK, the error or the end of the dump arrived.
 * @error: the kernel's negative errno, 0 if none.
 * @bad: a reply could not be parsed (a negative NLE_* code).
 * @ext: the kernel's extended ACK message, "" if none.
 * @devs: DEV_GET replies go here.
 * @max: room in @devs.
 * @count: DEV_GET replies seen.
 */
struct nl_req {
	int done;
	int error;
	int bad;
	char ext[NL_EXT_MSG_LEN];
	struct npuprof_nl_dev *devs;
	unsigned int max;
	unsigned int count;
};

/* The message of an extended ACK (NLMSGERR_ATTR_MSG), if there is one. */
static void ext_ack_msg(const struct nlmsgerr *e, char *buf, size_t len)
{
	const struct nlmsghdr *nlh = (const void *)((const char *)e - NLMSG_HDRLEN);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	size_t off = sizeof(*e), total;

	buf[0] = '\0';
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	/* the request's payload is echoed unless capped */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(e->msg);
	off = NLMSG_ALIGN(off);
	total = nlh->nlmsg_len - NLMSG_HDRLEN;
	if (off >= total)
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)((char *)e + off), (int)(total - off),
		      NULL) < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		nla_strlcpy(buf, tb[NLMSGERR_ATTR_MSG], len);
}

static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct nl_req *r = arg;

	(void)nla;
	r->error = e->error;
	ext_ack_msg(e, r->ext, sizeof(r->ext));
	r->done = 1;
	return NL_STOP;
}

static int on_done(struct nl_msg *msg, void *arg)
{
	struct nl_req *r = arg;

	(void)msg;
	r->done = 1;
	return NL_STOP;
}

static int on_dev(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[VNPU_A_MAX + 1];
	struct nl_req *r = arg;
	int ret;

	if (genlmsg_hdr(nlmsg_hdr(msg))->cmd != VNPU_CMD_DEV_GET)
		return NL_SKIP;
	ret = parse_msg(nlmsg_hdr(msg), tb);
	if (ret < 0) {
		if (!r->bad)
			r->bad = ret;
		return NL_SKIP;
	}
	if (r->devs && r->count < r->max)
		fill_dev(tb, &r->devs[r->count]);
	if (!r->devs || r->count < r->max)
		r->count++;
	return NL_OK;
}

/*
 * Send @cmd (with VNPU_A_DEV_ID when @dev_id >= 0) and read the answer
 * into @r. Return 0 or a negative errno, with @err filled naming @what.
 */
static int nl_request(struct npuprof_nl *nl, uint8_t cmd, int flags, int64_t dev_id,
		      struct nl_req *r, const char *what, struct npuprof_error *err)
{
	struct nl_msg *msg;
	struct nl_cb *cb;
	int ret;

	msg = nlmsg_alloc();
	if (!msg)
		return npx_set_error(err, -ENOMEM, "%s: out of memory", what);
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0, flags, cmd,
			 VNPU_GENL_VERSION) ||
	    (dev_id >= 0 && nla_put_u32(msg, VNPU_A_DEV_ID, (uint32_t)dev_id) < 0)) {
		nlmsg_free(msg);
		return npx_set_error(err, -ENOMEM, "%s: cannot build the request", what);
	}
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		nlmsg_free(msg);
		return npx_set_error(err, -ENOMEM, "%s: out of memory", what);
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_dev, r);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_done, r);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_done, r);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, r);

	ret = nl_send_auto(nl->sk, msg);
	nlmsg_free(msg);
	while (ret >= 0 && !r->done)
		ret = nl_recvmsgs(nl->sk, cb);
	nl_cb_put(cb);

	if (r->error)
		return npx_set_error(err, r->error, "%s: %s%s%s", what, strerror(-r->error),
				     r->ext[0] ? ": " : "", r->ext);
	if (ret < 0)
		return npx_set_error(err, nle_to_errno(ret), "%s: netlink: %s", what,
				     nl_geterror(ret));
	if (r->bad)
		return npx_set_error(err, -EPROTO, "%s: malformed reply: %s", what,
				     nl_geterror(r->bad));
	return 0;
}

/* Ask for extended ACKs (kernel messages), without the request echoed. */
static void nl_ext_ack(struct nl_sock *sk)
{
	int one = 1, fd = nl_socket_get_fd(sk);

	/* best effort: without them errors just carry no message */
	(void)setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	(void)setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
}

NPUPROF_API int npuprof_nl_open(struct npuprof_nl **nlp, struct npuprof_error *err)
{
	struct npuprof_nl *nl;
	int ret;

	npx_clear_error(err);
	if (!nlp)
		return npx_set_error(err, -EINVAL, "npuprof_nl_open: nlp is NULL");
	*nlp = NULL;
	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return npx_set_error(err, -ENOMEM, "out of memory");
	nl->sk = nl_socket_alloc();
	if (!nl->sk) {
		free(nl);
		return npx_set_error(err, -ENOMEM, "out of memory");
	}
	ret = genl_connect(nl->sk);
	if (ret < 0) {
		ret = npx_set_error(err, nle_to_errno(ret),
				    "cannot open a generic netlink socket: %s", nl_geterror(ret));
		goto err_free;
	}
	nl_ext_ack(nl->sk);
	ret = genl_ctrl_resolve(nl->sk, VNPU_GENL_NAME);
	if (ret == -NLE_OBJ_NOTFOUND) {
		ret = npx_set_error(
			err, -ENOENT,
			"generic netlink family \"%s\" is not registered: is vnpu.ko loaded?",
			VNPU_GENL_NAME);
		goto err_free;
	}
	if (ret < 0) {
		ret = npx_set_error(err, nle_to_errno(ret),
				    "cannot resolve the generic netlink family \"%s\": %s",
				    VNPU_GENL_NAME, nl_geterror(ret));
		goto err_free;
	}
	nl->family = ret;
	*nlp = nl;
	return 0;

err_free:
	nl_socket_free(nl->sk);
	free(nl);
	return ret;
}

NPUPROF_API void npuprof_nl_close(struct npuprof_nl *nl)
{
	if (!nl)
		return;
	if (nl->ev_sk)
		nl_socket_free(nl->ev_sk);
	nl_socket_free(nl->sk);
	free(nl);
}

NPUPROF_API int npuprof_nl_get(struct npuprof_nl *nl, uint32_t dev_id, struct npuprof_nl_dev *out,
			       struct npuprof_error *err)
{
	struct nl_req r = { .devs = out, .max = 1 };
	char what[64];
	int ret;

	npx_clear_error(err);
	if (!nl || !out)
		return npx_set_error(err, -EINVAL, "npuprof_nl_get: nl or out is NULL");
	snprintf(what, sizeof(what), "DEV_GET of device %u", dev_id);
	ret = nl_request(nl, VNPU_CMD_DEV_GET, 0, dev_id, &r, what, err);
	if (ret)
		return ret;
	if (r.count != 1)
		return npx_set_error(err, -EPROTO, "%s: no reply", what);
	return 0;
}

NPUPROF_API int npuprof_nl_dump(struct npuprof_nl *nl, struct npuprof_nl_dev *out, unsigned int max,
				struct npuprof_error *err)
{
	struct nl_req r = { .devs = out, .max = max };
	int ret;

	npx_clear_error(err);
	if (!nl)
		return npx_set_error(err, -EINVAL, "npuprof_nl_dump: nl is NULL");
	ret = nl_request(nl, VNPU_CMD_DEV_GET, NLM_F_DUMP, -1, &r, "DEV_GET dump", err);
	if (ret)
		return ret;
	return (int)r.count;
}

NPUPROF_API int npuprof_nl_reset_stats(struct npuprof_nl *nl, uint32_t dev_id,
				       struct npuprof_error *err)
{
	struct nl_req r = { 0 };
	char what[64];

	npx_clear_error(err);
	if (!nl)
		return npx_set_error(err, -EINVAL, "npuprof_nl_reset_stats: nl is NULL");
	snprintf(what, sizeof(what), "RESET_STATS of device %u", dev_id);
	return nl_request(nl, VNPU_CMD_RESET_STATS, 0, dev_id, &r, what, err);
}

/* ---- events ---- */

NPUPROF_API int npuprof_nl_subscribe(struct npuprof_nl *nl, struct npuprof_error *err)
{
	struct nl_sock *sk;
	int grp, ret;

	npx_clear_error(err);
	if (!nl)
		return npx_set_error(err, -EINVAL, "npuprof_nl_subscribe: nl is NULL");
	if (nl->ev_sk)
		return 0;
	grp = genl_ctrl_resolve_grp(nl->sk, VNPU_GENL_NAME, VNPU_GENL_MCGRP_EVENTS);
	if (grp < 0)
		return npx_set_error(err, grp == -NLE_OBJ_NOTFOUND ? -ENOENT : nle_to_errno(grp),
				     "cannot resolve the multicast group \"%s\" of \"%s\": %s",
				     VNPU_GENL_MCGRP_EVENTS, VNPU_GENL_NAME, nl_geterror(grp));
	sk = nl_socket_alloc();
	if (!sk)
		return npx_set_error(err, -ENOMEM, "out of memory");
	nl_socket_disable_seq_check(sk);
	ret = genl_connect(sk);
	if (ret >= 0)
		ret = nl_socket_add_membership(sk, grp);
	if (ret >= 0)
		ret = nl_socket_set_nonblocking(sk);
	if (ret < 0) {
		nl_socket_free(sk);
		return npx_set_error(err, nle_to_errno(ret),
				     "cannot join the multicast group \"%s\": %s",
				     VNPU_GENL_MCGRP_EVENTS, nl_geterror(ret));
	}
	nl->ev_sk = sk;
	nl->evq_head = nl->evq_len = 0;
	return 0;
}

/* Queue the event of one "vnpu" message; others are skipped. */
static void ev_parse(struct npuprof_nl *nl, struct nlmsghdr *nlh)
{
	struct nlattr *tb[VNPU_A_MAX + 1];
	struct npuprof_nl_event *ev;
	uint32_t type;

	if (nlh->nlmsg_type != nl->family || !genlmsg_valid_hdr(nlh, 0) ||
	    nl->evq_len == NL_EVQ_LEN)
		return;
	switch (genlmsg_hdr(nlh)->cmd) {
	case VNPU_CMD_SESSION_STARTED:
		type = NPUPROF_NL_EV_SESSION_STARTED;
		break;
	case VNPU_CMD_SESSION_STOPPED:
		type = NPUPROF_NL_EV_SESSION_STOPPED;
		break;
	case VNPU_CMD_RECORDS_LOST:
		type = NPUPROF_NL_EV_RECORDS_LOST;
		break;
	case VNPU_CMD_DEVICE_RESET:
		type = NPUPROF_NL_EV_DEVICE_RESET;
		break;
	default:
		return; /* a newer kernel's event */
	}
	if (parse_msg(nlh, tb) < 0)
		return;
	ev = &nl->evq[(nl->evq_head + nl->evq_len) % NL_EVQ_LEN];
	memset(ev, 0, sizeof(*ev));
	ev->type = type;
	ev->dev_id = get_u32(tb, VNPU_A_DEV_ID);
	ev->session = get_u32(tb, VNPU_A_PROF_SESSION);
	ev->level = get_u32(tb, VNPU_A_PROF_LEVEL);
	ev->produced = get_u64(tb, VNPU_A_RECORDS_PRODUCED);
	ev->lost = get_u64(tb, VNPU_A_RECORDS_LOST);
	nl->evq_len++;
}

/* Read one datagram without blocking: 1 if one was read, 0 if none, -errno. */
static int ev_read(struct npuprof_nl *nl)
{
	struct sockaddr_nl from;
	socklen_t fromlen = sizeof(from);
	struct nlmsghdr *nlh;
	ssize_t n;
	int len;

	n = recvfrom(nl_socket_get_fd(nl->ev_sk), nl->evbuf, sizeof(nl->evbuf), MSG_DONTWAIT,
		     (struct sockaddr *)&from, &fromlen);
	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -errno;
	/* only the kernel multicasts on this group */
	if (from.nl_pid != 0)
		return 1;
	len = (int)n;
	for (nlh = (struct nlmsghdr *)nl->evbuf; nlmsg_ok(nlh, len); nlh = nlmsg_next(nlh, &len))
		ev_parse(nl, nlh);
	return 1;
}

static int64_t ms_now(void)
{
	return (int64_t)(npx_now_ns() / 1000000u);
}

NPUPROF_API int npuprof_nl_next_event(struct npuprof_nl *nl, struct npuprof_nl_event *ev,
				      int timeout_ms, struct npuprof_error *err)
{
	int64_t deadline = timeout_ms < 0 ? 0 : ms_now() + timeout_ms;
	struct pollfd pfd;
	int ret, wait;

	npx_clear_error(err);
	if (!nl || !ev)
		return npx_set_error(err, -EINVAL, "npuprof_nl_next_event: nl or ev is NULL");
	if (!nl->ev_sk)
		return npx_set_error(err, -EINVAL,
				     "npuprof_nl_next_event: call npuprof_nl_subscribe() first");
	pfd.fd = nl_socket_get_fd(nl->ev_sk);
	pfd.events = POLLIN;
	for (;;) {
		if (nl->evq_len) {
			*ev = nl->evq[nl->evq_head];
			nl->evq_head = (nl->evq_head + 1) % NL_EVQ_LEN;
			nl->evq_len--;
			return 0;
		}
		ret = ev_read(nl);
		if (ret == -ENOBUFS)
			return npx_set_error(err, ret,
					     "events were lost (the socket buffer overran, or "
					     "the kernel could not allocate one)");
		if (ret < 0)
			return npx_set_error(err, ret, "reading events: %s", strerror(-ret));
		if (ret > 0)
			continue;
		if (timeout_ms < 0) {
			wait = -1;
		} else {
			int64_t left = deadline - ms_now();

			if (left <= 0)
				return npx_set_error(err, -ETIMEDOUT, "no event within %d ms",
						     timeout_ms);
			wait = (int)left;
		}
		if (poll(&pfd, 1, wait) < 0 && errno != EINTR)
			return npx_set_error(err, -errno, "poll: %s", strerror(errno));
	}
}
