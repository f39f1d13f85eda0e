// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu: the generic netlink family "vnpu" - device state and counters on
 * request, profiling-session events on the "events" multicast group.
 * User API in uapi/vnpu_nl.h, spec in kmod/spec/vnpu.yaml, documentation
 * in docs/netlink.md.
 *
 * Requests run in the sender's process context. The family has
 * parallel_ops (no genl_mutex): a handler reads a device under vdev->lock
 * into a snapshot, drops the lock, then builds the message (GFP_KERNEL).
 *
 * Where each event is sent from, and in which context:
 *  - SESSION_STARTED and SESSION_STOPPED: vnpu_prof.c, from the start and
 *    stop ioctls and from the release of the owning file, after vdev->lock
 *    is dropped and with vdev->prof_lock (a mutex) held, so they go out in
 *    session order. Process context, GFP_KERNEL.
 *  - RECORDS_LOST: vnpu_chan_reserve() runs under vdev->lock (a spinlock,
 *    in the executor thread or a debugfs bench_tasks write) and only sets
 *    ring->lost_event when a loss burst begins. vnpu_prof.c hands that to
 *    vnpu_nl_records_lost(), still under the lock, which only queues
 *    vdev->nl_lost_work; the work reads the counters under the lock and
 *    sends from the system workqueue, GFP_KERNEL. Rate limit: at most one
 *    event per session per VNPU_NL_LOST_INTERVAL_MS; a run that begins
 *    sooner is reported when the interval ends.
 *  - DEVICE_RESET: the RESET_STATS request. Process context, GFP_KERNEL.
 *
 * An event that cannot be allocated sets ENOBUFS on the listening sockets
 * (their next read fails), as an overrun of their receive buffer would.
 */
#include <linux/jiffies.h>
#include <linux/workqueue.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "vnpu_drv.h"
#include "vnpu_nl.h"
#include "vnpu_nl_family.h"
#include "vnpu_ring_math.h"

/* RECORDS_LOST events of one session are at least this far apart. */
#define VNPU_NL_LOST_INTERVAL_MS 100

enum vnpu_nl_mcgrp {
	VNPU_NL_MCGRP_EVENTS,
};

/*
 * Set once the family is registered and every device's work initialized;
 * cleared before they go away. Events are not sent while it is false.
 */
static bool vnpu_nl_ready;

static struct genl_family vnpu_nl_family;

/**
 * struct vnpu_nl_snap - a device's state, read under its lock
 * @id: the device.
 * @product_id: enum vnpu_product_id.
 * @p: its product (static).
 * @prof_active: a session runs; the members after @tasks_pending are valid.
 * @tasks_run: tasks completed since load or RESET_STATS.
 * @tasks_pending: tasks queued.
 * @session: the running session's id.
 * @level: its level.
 * @group: its metric group.
 * @produced: records it produced, over its channels.
 * @lost: records it dropped.
 * @ring_size: data bytes of its channels.
 * @ring_used: bytes not consumed, as the kernel last saw them.
 */
struct vnpu_nl_snap {
	u32 id;
	u32 product_id;
	const struct vnpu_product_desc *p;
	bool prof_active;
	u64 tasks_run;
	u64 tasks_pending;
	u32 session;
	u32 level;
	u32 group;
	u64 produced;
	u64 lost;
	u64 ring_size;
	u64 ring_used;
};

/**
 * struct vnpu_nl_ev - the content of one notification
 * @cmd: VNPU_CMD_SESSION_STARTED .. VNPU_CMD_DEVICE_RESET.
 * @dev_id: the device.
 * @session: the session (session events).
 * @level: its level (session events).
 * @group: its metric group (SESSION_STARTED).
 * @ring_size: its channels' data bytes (SESSION_STARTED).
 * @produced: records produced (SESSION_STOPPED, RECORDS_LOST).
 * @lost: records lost (SESSION_STOPPED, RECORDS_LOST).
 */
struct vnpu_nl_ev {
	u8 cmd;
	u32 dev_id;
	u32 session;
	u32 level;
	u32 group;
	u64 ring_size;
	u64 produced;
	u64 lost;
};

static void vnpu_nl_snapshot(struct vnpu_device *vdev, struct vnpu_nl_snap *s)
{
	struct vnpu_prof *prof;
	struct vnpu_ring *r;

	memset(s, 0, sizeof(*s));
	s->id = vdev->id;
	s->product_id = vdev->product_id;
	s->p = vdev->product;

	spin_lock(&vdev->lock);
	s->tasks_run = vdev->tasks_run;
	s->tasks_pending = vdev->npending;
	prof = vdev->prof;
	if (prof) {
		r = prof->ring;
		s->prof_active = true;
		s->session = prof->id;
		s->level = prof->level;
		s->group = prof->group;
		s->produced = r->produced;
		s->lost = r->lost;
		s->ring_size = r->size;
		s->ring_used = vnpu_ring_used(r->cons_seen, r->prod);
	}
	spin_unlock(&vdev->lock);
}

static size_t vnpu_nl_dev_size(const struct vnpu_nl_snap *s)
{
	return nla_total_size(strlen(s->p->name) + 1) +
	       nla_total_size(strlen(s->p->chip_name) + 1) +
	       /* id, product, chip id, 3 core counts, 2 clocks, active */
	       9 * nla_total_size(sizeof(u32)) +
	       /* session, level, group */
	       3 * nla_total_size(sizeof(u32)) +
	       /* tasks run and pending, produced, lost, ring size and used */
	       6 * nla_total_size_64bit(sizeof(u64));
}

static int vnpu_nl_put_dev(struct sk_buff *skb, const struct vnpu_nl_snap *s)
{
	const struct vnpu_product_desc *p = s->p;

	if (nla_put_u32(skb, VNPU_A_DEV_ID, s->id) ||
	    nla_put_u32(skb, VNPU_A_DEV_PRODUCT, s->product_id) ||
	    nla_put_string(skb, VNPU_A_DEV_PRODUCT_NAME, p->name) ||
	    nla_put_string(skb, VNPU_A_DEV_CHIP_NAME, p->chip_name) ||
	    nla_put_u32(skb, VNPU_A_DEV_CHIP_ID, p->chip_id) ||
	    nla_put_u32(skb, VNPU_A_DEV_AIC_NUM, p->aic_num) ||
	    nla_put_u32(skb, VNPU_A_DEV_AIV_NUM, p->aiv_num) ||
	    nla_put_u32(skb, VNPU_A_DEV_AICPU_NUM, p->aicpu_num) ||
	    nla_put_u32(skb, VNPU_A_DEV_AIC_FREQ_KHZ, p->aic_freq_khz) ||
	    nla_put_u32(skb, VNPU_A_DEV_SYS_CNT_FREQ_KHZ, p->sys_cnt_freq_khz) ||
	    nla_put_u32(skb, VNPU_A_PROF_ACTIVE, s->prof_active) ||
	    nla_put_u64_64bit(skb, VNPU_A_TASKS_RUN, s->tasks_run, VNPU_A_PAD) ||
	    nla_put_u64_64bit(skb, VNPU_A_TASKS_PENDING, s->tasks_pending, VNPU_A_PAD))
		return -EMSGSIZE;
	if (!s->prof_active)
		return 0;
	if (nla_put_u32(skb, VNPU_A_PROF_SESSION, s->session) ||
	    nla_put_u32(skb, VNPU_A_PROF_LEVEL, s->level) ||
	    nla_put_u32(skb, VNPU_A_PROF_METRIC_GROUP, s->group) ||
	    nla_put_u64_64bit(skb, VNPU_A_RECORDS_PRODUCED, s->produced, VNPU_A_PAD) ||
	    nla_put_u64_64bit(skb, VNPU_A_RECORDS_LOST, s->lost, VNPU_A_PAD) ||
	    nla_put_u64_64bit(skb, VNPU_A_RING_SIZE, s->ring_size, VNPU_A_PAD) ||
	    nla_put_u64_64bit(skb, VNPU_A_RING_USED, s->ring_used, VNPU_A_PAD))
		return -EMSGSIZE;
	return 0;
}

/* ---- events ---- */

static size_t vnpu_nl_ev_size(void)
{
	/* dev id, session, level, group; ring size, produced, lost */
	return 4 * nla_total_size(sizeof(u32)) +
	       3 * nla_total_size_64bit(sizeof(u64));
}

static int vnpu_nl_put_ev(struct sk_buff *skb, const struct vnpu_nl_ev *ev)
{
	if (nla_put_u32(skb, VNPU_A_DEV_ID, ev->dev_id))
		return -EMSGSIZE;
	switch (ev->cmd) {
	case VNPU_CMD_SESSION_STARTED:
		if (nla_put_u32(skb, VNPU_A_PROF_SESSION, ev->session) ||
		    nla_put_u32(skb, VNPU_A_PROF_LEVEL, ev->level) ||
		    nla_put_u32(skb, VNPU_A_PROF_METRIC_GROUP, ev->group) ||
		    nla_put_u64_64bit(skb, VNPU_A_RING_SIZE, ev->ring_size, VNPU_A_PAD))
			return -EMSGSIZE;
		break;
	case VNPU_CMD_SESSION_STOPPED:
	case VNPU_CMD_RECORDS_LOST:
		if (nla_put_u32(skb, VNPU_A_PROF_SESSION, ev->session) ||
		    nla_put_u32(skb, VNPU_A_PROF_LEVEL, ev->level) ||
		    nla_put_u64_64bit(skb, VNPU_A_RECORDS_PRODUCED, ev->produced, VNPU_A_PAD) ||
		    nla_put_u64_64bit(skb, VNPU_A_RECORDS_LOST, ev->lost, VNPU_A_PAD))
			return -EMSGSIZE;
		break;
	default:
		break;
	}
	return 0;
}

/* Multicast @ev on "events". Process context: may sleep. */
static void vnpu_nl_send_event(const struct vnpu_nl_ev *ev)
{
	struct sk_buff *skb;
	void *hdr;

	might_sleep();
	/* pairs with the store-release in vnpu_nl_init() */
	if (!smp_load_acquire(&vnpu_nl_ready) ||
	    !genl_has_listeners(&vnpu_nl_family, &init_net, VNPU_NL_MCGRP_EVENTS))
		return;

	skb = genlmsg_new(vnpu_nl_ev_size(), GFP_KERNEL);
	if (!skb)
		goto err_report;
	hdr = genlmsg_put(skb, 0, 0, &vnpu_nl_family, 0, ev->cmd);
	if (!hdr || vnpu_nl_put_ev(skb, ev)) {
		/* cannot happen: the size covers every attribute */
		nlmsg_free(skb);
		goto err_report;
	}
	genlmsg_end(skb, hdr);
	/* -ESRCH when the last listener left meanwhile: nothing to do */
	genlmsg_multicast(&vnpu_nl_family, skb, 0, VNPU_NL_MCGRP_EVENTS, GFP_KERNEL);
	return;

err_report:
	genl_set_err(&vnpu_nl_family, &init_net, 0, VNPU_NL_MCGRP_EVENTS, -ENOBUFS);
}

/**
 * vnpu_nl_session_started() - multicast SESSION_STARTED
 * @vdev: the device.
 * @prof: its new session, vdev->prof.
 *
 * Context: process; vdev->prof_lock held (so @prof stays), vdev->lock not.
 */
void vnpu_nl_session_started(struct vnpu_device *vdev, const struct vnpu_prof *prof)
{
	struct vnpu_nl_ev ev = {
		.cmd = VNPU_CMD_SESSION_STARTED,
		.dev_id = vdev->id,
		.session = prof->id,
		.level = prof->level,
		.group = prof->group,
		.ring_size = prof->ring->size,
	};

	lockdep_assert_held(&vdev->prof_lock);
	vnpu_nl_send_event(&ev);
}

/**
 * vnpu_nl_session_stopped() - multicast SESSION_STOPPED
 * @vdev: the device.
 * @prof: the session, just stopped: no record is produced any more, so its
 *        counters are final.
 *
 * Context: process; vdev->prof_lock held, vdev->lock not.
 */
void vnpu_nl_session_stopped(struct vnpu_device *vdev, const struct vnpu_prof *prof)
{
	struct vnpu_nl_ev ev = {
		.cmd = VNPU_CMD_SESSION_STOPPED,
		.dev_id = vdev->id,
		.session = prof->id,
		.level = prof->level,
		.produced = prof->final.produced,
		.lost = prof->final.lost,
	};

	lockdep_assert_held(&vdev->prof_lock);
	vnpu_nl_send_event(&ev);
}

/**
 * vnpu_nl_records_lost() - a loss burst began in @prof's channels
 * @vdev: the device.
 * @prof: its running session, whose ring has lost_event set.
 *
 * Clears lost_event and queues the RECORDS_LOST work: at once, or when
 * VNPU_NL_LOST_INTERVAL_MS have passed since the session's last event.
 * Nothing is queued while the work is pending: it reads the counters when
 * it runs, so it covers this run too.
 *
 * Context: vdev->lock held (any context that may take it); does not sleep.
 */
void vnpu_nl_records_lost(struct vnpu_device *vdev, struct vnpu_prof *prof)
{
	unsigned long delay = 0;

	lockdep_assert_held(&vdev->lock);
	prof->ring->lost_event = false;
	/* pairs with the store-release in vnpu_nl_init(): the work is set up */
	if (!smp_load_acquire(&vnpu_nl_ready))
		return;
	if (prof->id == vdev->nl_lost_session &&
	    time_before(jiffies, vdev->nl_lost_next))
		delay = vdev->nl_lost_next - jiffies;
	vdev->nl_lost_due = prof->id;
	queue_delayed_work(system_wq, &vdev->nl_lost_work, delay);
}

static void vnpu_nl_lost_work(struct work_struct *work)
{
	struct vnpu_device *vdev = container_of(to_delayed_work(work),
						struct vnpu_device, nl_lost_work);
	struct vnpu_nl_ev ev = {
		.cmd = VNPU_CMD_RECORDS_LOST,
		.dev_id = vdev->id,
	};
	struct vnpu_prof *prof;
	bool send = false;

	spin_lock(&vdev->lock);
	prof = vdev->prof;
	/* a session that stopped meanwhile reports its loss at stop */
	if (prof && prof->id == vdev->nl_lost_due) {
		ev.session = prof->id;
		ev.level = prof->level;
		ev.produced = prof->ring->produced;
		ev.lost = prof->ring->lost;
		vdev->nl_lost_session = prof->id;
		vdev->nl_lost_next = jiffies + msecs_to_jiffies(VNPU_NL_LOST_INTERVAL_MS);
		send = true;
	}
	spin_unlock(&vdev->lock);
	if (send)
		vnpu_nl_send_event(&ev);
}

/* ---- requests ---- */

/* The device VNPU_A_DEV_ID names, or an ERR_PTR with extack set. */
static struct vnpu_device *vnpu_nl_dev_from(struct genl_info *info)
{
	struct vnpu_device *vdev;
	struct nlattr *attr;

	if (GENL_REQ_ATTR_CHECK(info, VNPU_A_DEV_ID)) {
		GENL_SET_ERR_MSG(info, "the device id (VNPU_A_DEV_ID) is required");
		return ERR_PTR(-EINVAL);
	}
	attr = info->attrs[VNPU_A_DEV_ID];
	vdev = vnpu_device_get(nla_get_u32(attr));
	if (!vdev) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "no such device (see the module parameter devices)");
		return ERR_PTR(-ENODEV);
	}
	return vdev;
}

static int vnpu_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct vnpu_device *vdev = vnpu_nl_dev_from(info);
	struct vnpu_nl_snap s;
	struct sk_buff *msg;
	void *hdr;

	if (IS_ERR(vdev))
		return PTR_ERR(vdev);
	vnpu_nl_snapshot(vdev, &s);

	msg = genlmsg_new(vnpu_nl_dev_size(&s), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &vnpu_nl_family, 0, VNPU_CMD_DEV_GET);
	if (!hdr || vnpu_nl_put_dev(msg, &s)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/*
 * Every device (or only VNPU_A_DEV_ID when given), one message each;
 * cb->args[0] is the next device to put.
 */
static int vnpu_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	struct nlattr *only = info->attrs[VNPU_A_DEV_ID];
	u32 id, end = vnpu_device_count();
	struct vnpu_nl_snap s;
	void *hdr;

	id = cb->args[0];
	if (only && !id) {
		id = nla_get_u32(only);
		end = min(end, id + 1);
	}
	for (; id < end; id++) {
		vnpu_nl_snapshot(vnpu_device_get(id), &s);
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
				  &vnpu_nl_family, NLM_F_MULTI, VNPU_CMD_DEV_GET);
		if (!hdr)
			break;
		if (vnpu_nl_put_dev(skb, &s)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	/* past the end once done, so a filtered dump does not start over */
	cb->args[0] = id < end ? id : U32_MAX;
	return skb->len;
}

static int vnpu_nl_reset_stats_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct vnpu_device *vdev = vnpu_nl_dev_from(info);
	struct vnpu_nl_ev ev = { .cmd = VNPU_CMD_DEVICE_RESET };

	if (IS_ERR(vdev))
		return PTR_ERR(vdev);
	spin_lock(&vdev->lock);
	vdev->tasks_run = 0;
	spin_unlock(&vdev->lock);

	ev.dev_id = vdev->id;
	vnpu_nl_send_event(&ev);
	return 0;
}

/* Per-command policies: ids no device can have are -ERANGE here already. */
static const struct nla_policy vnpu_nl_dev_get_policy[VNPU_A_DEV_ID + 1] = {
	[VNPU_A_DEV_ID] = NLA_POLICY_MAX(NLA_U32, VNPU_MAX_DEVICES - 1),
};

static const struct nla_policy vnpu_nl_reset_stats_policy[VNPU_A_DEV_ID + 1] = {
	[VNPU_A_DEV_ID] = NLA_POLICY_MAX(NLA_U32, VNPU_MAX_DEVICES - 1),
};

static const struct genl_ops vnpu_nl_ops[] = {
	{
		.cmd = VNPU_CMD_DEV_GET,
		.doit = vnpu_nl_dev_get_doit,
		.dumpit = vnpu_nl_dev_get_dumpit,
		.policy = vnpu_nl_dev_get_policy,
		.maxattr = ARRAY_SIZE(vnpu_nl_dev_get_policy) - 1,
	},
	{
		.cmd = VNPU_CMD_RESET_STATS,
		.flags = GENL_ADMIN_PERM,
		.doit = vnpu_nl_reset_stats_doit,
		.policy = vnpu_nl_reset_stats_policy,
		.maxattr = ARRAY_SIZE(vnpu_nl_reset_stats_policy) - 1,
	},
};

static const struct genl_multicast_group vnpu_nl_mcgrps[] = {
	[VNPU_NL_MCGRP_EVENTS] = { .name = VNPU_GENL_MCGRP_EVENTS },
};

static struct genl_family vnpu_nl_family __ro_after_init = {
	.name = VNPU_GENL_NAME,
	.version = VNPU_GENL_VERSION,
	.module = THIS_MODULE,
	/* devices are in the initial namespace only */
	.netnsok = false,
	/* the handlers take vdev->lock themselves */
	.parallel_ops = true,
	/* 0: every command validated strictly (header, flags, attributes) */
	.resv_start_op = 0,
	.ops = vnpu_nl_ops,
	.n_ops = ARRAY_SIZE(vnpu_nl_ops),
	.mcgrps = vnpu_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(vnpu_nl_mcgrps),
};

/**
 * vnpu_nl_init() - register the family
 *
 * Called once every device exists, so a request never sees a device being
 * added.
 *
 * Return: 0 or the error of genl_register_family().
 */
int vnpu_nl_init(void)
{
	u32 i;
	int ret;

	for (i = 0; i < vnpu_device_count(); i++)
		INIT_DELAYED_WORK(&vnpu_device_get(i)->nl_lost_work, vnpu_nl_lost_work);
	ret = genl_register_family(&vnpu_nl_family);
	if (ret)
		return ret;
	/* the works and the family are visible to whoever sees this */
	smp_store_release(&vnpu_nl_ready, true);
	return 0;
}

/**
 * vnpu_nl_exit() - unregister the family
 *
 * Called before the devices go away, with no file open (so no session and
 * no new RECORDS_LOST work): cancels pending works, then waits for running
 * requests (genl_unregister_family() does).
 */
void vnpu_nl_exit(void)
{
	u32 i;

	WRITE_ONCE(vnpu_nl_ready, false);
	for (i = 0; i < vnpu_device_count(); i++)
		cancel_delayed_work_sync(&vnpu_device_get(i)->nl_lost_work);
	genl_unregister_family(&vnpu_nl_family);
}
