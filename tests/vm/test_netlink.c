// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family "vnpu" through libnpuprof's client
 * (npuprof_nl_*) and raw libnl requests: the dump lists every device with
 * its product facts, strict validation (bad, missing, unknown and
 * mis-sized attributes), counters that follow the work, the running
 * session's state, the events of a session (start, stop, owner close,
 * loss with a 1-page ring and no reader), RESET_STATS for root only, and
 * the family as iproute2's `genl ctrl list` and libnl's `genl-ctrl-list`
 * see it. make check loads the module with devices=8.
 */
#include <grp.h>
#include <sys/wait.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "kselftest_harness.h"
#include "vm/vnpu_test.h"
#include "npuprof.h"
#include "vnpu_nl.h"
#include "vnpu_prof.h"

#define EV_TIMEOUT_MS 20000

/* ---- helpers ---- */

/* Run @n small AI Core tasks on a new stream of @fd and wait; 0 or -errno. */
static int run_tasks(int fd, unsigned int n)
{
	struct vnpu_task *t = calloc(n, sizeof(*t));
	int s = vnpu_stream_new(fd), ret;

	if (!t)
		return -ENOMEM;
	if (s < 0) {
		free(t);
		return s;
	}
	for (unsigned int i = 0; i < n; i++)
		vnpu_task_init(&t[i], "Add", "Add", VNPU_TASK_AI_CORE, s, 1 << 16, 1 << 16);
	ret = vnpu_submit_tasks(fd, t, n, NULL);
	if (!ret)
		ret = vnpu_sync_stream(fd, s, 0, 60000, NULL);
	if (!ret)
		ret = vnpu_stream_del(fd, s);
	free(t);
	return ret;
}

/*
 * The next event of @type on @dev (and of @session unless 0), skipping
 * others; *@skipped counts the skipped events of @skip_type for that
 * device and session when not NULL. 0 or -errno.
 */
static int wait_event(struct npuprof_nl *nl, uint32_t type, uint32_t dev, uint32_t session,
		      struct npuprof_nl_event *ev, uint32_t skip_type, int *skipped,
		      struct npuprof_error *err)
{
	for (;;) {
		int ret = npuprof_nl_next_event(nl, ev, EV_TIMEOUT_MS, err);

		if (ret)
			return ret;
		if (ev->dev_id != dev || (session && ev->session != session))
			continue;
		if (ev->type == type)
			return 0;
		if (skipped && ev->type == skip_type)
			(*skipped)++;
	}
}

/* A device other suites' tests in this file do not use at the same time. */
static unsigned int pick_dev(unsigned int want)
{
	unsigned int n = vnpu_param_devices();

	return n ? want % n : 0;
}

/* ---- raw libnl requests, for what the client cannot send ---- */

struct raw_ctx {
	int done;
	int error;
	int replies;
	uint32_t last_id;
};

static int raw_err(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct raw_ctx *c = arg;

	c->error = e->error;
	c->done = 1;
	return NL_STOP;
}

static int raw_done(struct nl_msg *msg, void *arg)
{
	((struct raw_ctx *)arg)->done = 1;
	return NL_STOP;
}

static int raw_valid(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[VNPU_A_MAX + 1];
	struct raw_ctx *c = arg;

	c->replies++;
	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, VNPU_A_MAX, NULL) == 0 && tb[VNPU_A_DEV_ID])
		c->last_id = nla_get_u32(tb[VNPU_A_DEV_ID]);
	return NL_OK;
}

/*
 * Send @cmd with @flags and, when @type is not 0, one attribute @type of
 * @len bytes (2, 4 or 8) holding @value; then read the answer into @c.
 * Return 0 (c->error holds the kernel's errno) or a libnl error.
 */
static int raw_request(uint8_t cmd, int flags, int type, int len, uint64_t value, struct raw_ctx *c)
{
	struct nl_sock *sk = nl_socket_alloc();
	struct nl_msg *msg = nlmsg_alloc();
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	int family, ret = -NLE_NOMEM;

	memset(c, 0, sizeof(*c));
	if (!sk || !msg || !cb)
		goto out;
	ret = genl_connect(sk);
	if (ret < 0)
		goto out;
	family = genl_ctrl_resolve(sk, VNPU_GENL_NAME);
	if (family < 0) {
		ret = family;
		goto out;
	}
	genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, flags, cmd, VNPU_GENL_VERSION);
	if (type == 0)
		ret = 0;
	else if (len == 2)
		ret = nla_put_u16(msg, type, (uint16_t)value);
	else if (len == 4)
		ret = nla_put_u32(msg, type, (uint32_t)value);
	else
		ret = nla_put_u64(msg, type, value);
	if (ret < 0)
		goto out;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, raw_valid, c);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, raw_done, c);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, raw_done, c);
	nl_cb_err(cb, NL_CB_CUSTOM, raw_err, c);
	ret = nl_send_auto(sk, msg);
	while (ret >= 0 && !c->done)
		ret = nl_recvmsgs(sk, cb);
	if (c->done)
		ret = 0;
out:
	nl_cb_put(cb);
	nlmsg_free(msg);
	nl_socket_free(sk);
	return ret;
}

/* ---- the client ---- */

FIXTURE(nl)
{
	struct npuprof_nl *nl;
	struct npuprof_error err;
	unsigned int ndev;
};

FIXTURE_SETUP(nl)
{
	self->ndev = vnpu_param_devices();
	ASSERT_GT(self->ndev, 0);
	ASSERT_EQ(0, npuprof_nl_open(&self->nl, &self->err)) TH_LOG("%s", self->err.msg);
}

FIXTURE_TEARDOWN(nl)
{
	npuprof_nl_close(self->nl);
}

/* The dump lists every device once, in id order, with its product's facts. */
TEST_F(nl, dump_lists_every_device)
{
	struct npuprof_nl_dev devs[VNPU_MAX_DEVICES], one;
	struct vnpu_info info;
	int n, fd;

	n = npuprof_nl_dump(self->nl, devs, VNPU_MAX_DEVICES, &self->err);
	ASSERT_EQ(self->ndev, n) TH_LOG("%s", self->err.msg);
	for (unsigned int i = 0; i < self->ndev; i++) {
		fd = vnpu_open_dev(i, O_RDWR);
		ASSERT_GE(fd, 0);
		ASSERT_EQ(0, vnpu_get_info(fd, &info));
		close(fd);
		EXPECT_EQ(i, devs[i].id);
		EXPECT_EQ(info.product, devs[i].product);
		EXPECT_STREQ(info.product_name, devs[i].product_name);
		EXPECT_STREQ(info.chip_name, devs[i].chip_name);
		EXPECT_EQ(info.chip_id, devs[i].chip_id);
		EXPECT_EQ(info.aic_num, devs[i].aic_num);
		EXPECT_EQ(info.aiv_num, devs[i].aiv_num);
		EXPECT_EQ(info.aicpu_num, devs[i].aicpu_num);
		EXPECT_EQ(info.aic_freq_khz, devs[i].aic_freq_khz);
		EXPECT_EQ(info.sys_cnt_freq_khz, devs[i].sys_cnt_freq_khz);
		EXPECT_EQ(0, devs[i].prof_active);
		/* a get of the same device agrees */
		ASSERT_EQ(0, npuprof_nl_get(self->nl, i, &one, &self->err))
		TH_LOG("%s",
										   self->err.msg);
		EXPECT_EQ(i, one.id);
		EXPECT_STREQ(devs[i].product_name, one.product_name);
	}
	/* counting only, and a short array */
	EXPECT_EQ(self->ndev, npuprof_nl_dump(self->nl, NULL, 0, &self->err));
	if (self->ndev >= 2)
		EXPECT_EQ(2, npuprof_nl_dump(self->nl, devs, 2, &self->err));
}

/* Bad ids are clean errors with a message; the connection stays usable. */
TEST_F(nl, get_bad_id)
{
	struct npuprof_nl_dev d;

	EXPECT_EQ(-ENODEV, npuprof_nl_get(self->nl, self->ndev, &d, &self->err));
	EXPECT_EQ(-ENODEV, self->err.code);
	EXPECT_NE(NULL, strstr(self->err.msg, "no such device")) TH_LOG("%s", self->err.msg);
	/* beyond any device: the policy's range, -ERANGE with its message */
	EXPECT_EQ(-ERANGE, npuprof_nl_get(self->nl, 1000, &d, &self->err));
	EXPECT_NE(NULL, strstr(self->err.msg, "out of range")) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(-ERANGE, npuprof_nl_get(self->nl, VNPU_MAX_DEVICES, &d, &self->err));
	EXPECT_EQ(-ERANGE, npuprof_nl_get(self->nl, UINT32_MAX, &d, &self->err));
	EXPECT_EQ(-ERANGE, npuprof_nl_reset_stats(self->nl, 1000, &self->err));
	EXPECT_EQ(-ENODEV, npuprof_nl_reset_stats(self->nl, self->ndev, &self->err));
	EXPECT_EQ(0, npuprof_nl_get(self->nl, 0, &d, &self->err)) TH_LOG("%s", self->err.msg);
}

/* Strict validation: a missing, unknown or mis-sized attribute is -EINVAL. */
TEST(strict_validation)
{
	unsigned int ndev = vnpu_param_devices();
	struct raw_ctx c;

	ASSERT_EQ(0, raw_request(VNPU_CMD_DEV_GET, 0, 0, 0, 0, &c));
	EXPECT_EQ(-EINVAL, c.error) TH_LOG("missing VNPU_A_DEV_ID");
	ASSERT_EQ(0, raw_request(VNPU_CMD_RESET_STATS, 0, 0, 0, 0, &c));
	EXPECT_EQ(-EINVAL, c.error) TH_LOG("missing VNPU_A_DEV_ID");
	ASSERT_EQ(0, raw_request(VNPU_CMD_DEV_GET, 0, VNPU_A_DEV_ID, 2, 0, &c));
	EXPECT_EQ(-EINVAL, c.error) TH_LOG("a u16 device id");
	ASSERT_EQ(0, raw_request(VNPU_CMD_DEV_GET, 0, VNPU_A_TASKS_RUN, 8, 0, &c));
	EXPECT_EQ(-EINVAL, c.error) TH_LOG("an attribute DEV_GET does not take");
	ASSERT_EQ(0, raw_request(VNPU_CMD_DEV_GET, 0, VNPU_A_MAX + 5, 4, 0, &c));
	EXPECT_EQ(-EINVAL, c.error) TH_LOG("an unknown attribute");
	ASSERT_EQ(0, raw_request(VNPU_CMD_DEV_GET, 0, VNPU_A_DEV_ID, 4, ndev, &c));
	EXPECT_EQ(-ENODEV, c.error);
	/* a notification is not a command */
	ASSERT_EQ(0, raw_request(VNPU_CMD_SESSION_STARTED, 0, 0, 0, 0, &c));
	EXPECT_EQ(-EOPNOTSUPP, c.error);
	/* valid: one reply, and the dump filtered by id gives that device only */
	ASSERT_EQ(0, raw_request(VNPU_CMD_DEV_GET, 0, VNPU_A_DEV_ID, 4, ndev - 1, &c));
	EXPECT_EQ(0, c.error);
	EXPECT_EQ(1, c.replies);
	EXPECT_EQ(ndev - 1, c.last_id);
	ASSERT_EQ(0, raw_request(VNPU_CMD_DEV_GET, NLM_F_DUMP, VNPU_A_DEV_ID, 4, ndev - 1, &c));
	EXPECT_EQ(0, c.error);
	EXPECT_EQ(1, c.replies);
	EXPECT_EQ(ndev - 1, c.last_id);
	ASSERT_EQ(0, raw_request(VNPU_CMD_DEV_GET, NLM_F_DUMP, 0, 0, 0, &c));
	EXPECT_EQ(0, c.error);
	EXPECT_EQ(ndev, c.replies);
}

/* tasks_run grows by exactly the tasks run; nothing stays pending. */
TEST_F(nl, counters_follow_tasks)
{
	unsigned int dev = pick_dev(1);
	struct npuprof_nl_dev before, after;
	int fd = vnpu_open_dev(dev, O_RDWR);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, npuprof_nl_get(self->nl, dev, &before, &self->err))
	TH_LOG("%s",
										self->err.msg);
	ASSERT_EQ(0, run_tasks(fd, 37));
	ASSERT_EQ(0, npuprof_nl_get(self->nl, dev, &after, &self->err));
	EXPECT_EQ(before.tasks_run + 37, after.tasks_run);
	EXPECT_EQ(0, after.tasks_pending);
	ASSERT_EQ(0, run_tasks(fd, 5));
	ASSERT_EQ(0, npuprof_nl_get(self->nl, dev, &after, &self->err));
	EXPECT_EQ(before.tasks_run + 42, after.tasks_run);
	close(fd);
}

/* While a session runs, the device shows it: id, level, group, ring. */
TEST_F(nl, profiling_state)
{
	unsigned int dev = pick_dev(2);
	struct npuprof_nl_dev d;
	struct vnpu_prof_start ps;
	struct vnpu_prof_stats st;
	struct vnpu_info info;
	int fd = vnpu_open_dev(dev, O_RDWR), group = VNPU_METRIC_PIPE_UTILIZATION;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, vnpu_get_info(fd, &info));
	/* a group other than the default, when the product has one */
	for (int g = 0; g < VNPU_METRIC_COUNT; g++)
		if (g != VNPU_METRIC_PIPE_UTILIZATION && (info.metric_groups & (1u << g))) {
			group = g;
			break;
		}
	ASSERT_EQ(0, npuprof_nl_get(self->nl, dev, &d, &self->err));
	EXPECT_EQ(0, d.prof_active);
	EXPECT_EQ(0, d.prof_session);

	ASSERT_EQ(0, vnpu_prof_start(fd, VNPU_PROF_L1, group, 4, 0, &ps));
	ASSERT_EQ(0, npuprof_nl_get(self->nl, dev, &d, &self->err)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(1, d.prof_active);
	EXPECT_EQ(ps.session_id, d.prof_session);
	EXPECT_EQ(VNPU_PROF_L1, d.prof_level);
	EXPECT_EQ(group, d.prof_group);
	/* the channels' data: ACSQ and PMU of 4 pages, TS_TRACK and AICPU of 1 */
	EXPECT_EQ(10 * 4096, d.ring_size);
	EXPECT_EQ(0, d.records_produced);
	EXPECT_EQ(0, d.ring_used);

	/* nobody reads: what was written stays unread */
	ASSERT_EQ(0, run_tasks(fd, 3));
	ASSERT_EQ(0, vnpu_prof_stats(fd, &st));
	ASSERT_EQ(0, npuprof_nl_get(self->nl, dev, &d, &self->err));
	EXPECT_EQ(st.produced, d.records_produced);
	/* L1: a start and an end log and a PMU record, and the stream's flips */
	EXPECT_EQ(9 + vnpu_chan_produced(fd, &ps, VNPU_CH_TS_TRACK), d.records_produced);
	EXPECT_EQ(0, d.records_lost);
	EXPECT_EQ(st.bytes, d.ring_used);
	EXPECT_GT(d.ring_used, 0);

	ASSERT_EQ(0, vnpu_prof_stop(fd));
	ASSERT_EQ(0, npuprof_nl_get(self->nl, dev, &d, &self->err));
	EXPECT_EQ(0, d.prof_active);
	EXPECT_EQ(0, d.prof_session);
	EXPECT_EQ(0, d.records_produced);
	close(fd);
}

/* Start and stop each send an event, with the session's final counts. */
TEST_F(nl, session_events)
{
	unsigned int dev = pick_dev(3);
	struct npuprof_nl_event ev;
	struct vnpu_prof_start ps;
	struct vnpu_prof_stats st;
	int fd = vnpu_open_dev(dev, O_RDWR);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, npuprof_nl_subscribe(self->nl, &self->err)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(0, npuprof_nl_subscribe(self->nl, &self->err)); /* again: a no-op */
	EXPECT_EQ(-ETIMEDOUT, npuprof_nl_next_event(self->nl, &ev, 0, &self->err));

	ASSERT_EQ(0, vnpu_prof_start(fd, VNPU_PROF_L0, -1, 0, 0, &ps));
	ASSERT_EQ(0, wait_event(self->nl, NPUPROF_NL_EV_SESSION_STARTED, dev, 0, &ev, 0, NULL,
				&self->err))
	TH_LOG("%s", self->err.msg);
	EXPECT_EQ(ps.session_id, ev.session);
	EXPECT_EQ(VNPU_PROF_L0, ev.level);

	ASSERT_EQ(0, run_tasks(fd, 5));
	ASSERT_EQ(0, vnpu_prof_stop(fd));
	ASSERT_EQ(0, vnpu_prof_stats(fd, &st));
	ASSERT_EQ(0, wait_event(self->nl, NPUPROF_NL_EV_SESSION_STOPPED, dev, ps.session_id, &ev, 0,
				NULL, &self->err))
	TH_LOG("%s", self->err.msg);
	EXPECT_EQ(VNPU_PROF_L0, ev.level);
	/* L0: a start and an end log, and the stream's flips */
	EXPECT_EQ(10 + vnpu_chan_produced(fd, &ps, VNPU_CH_TS_TRACK), ev.produced);
	EXPECT_EQ(st.produced, ev.produced);
	EXPECT_EQ(0, ev.lost);

	/* closing the owner stops the session too */
	ASSERT_EQ(0, vnpu_prof_start(fd, VNPU_PROF_L1, -1, 0, 0, &ps));
	close(fd);
	ASSERT_EQ(0, wait_event(self->nl, NPUPROF_NL_EV_SESSION_STOPPED, dev, ps.session_id, &ev, 0,
				NULL, &self->err))
	TH_LOG("%s", self->err.msg);
	EXPECT_EQ(VNPU_PROF_L1, ev.level);
	EXPECT_EQ(0, ev.produced);
}

/*
 * A 1-page ring at L1 with no reader overflows: one RECORDS_LOST event
 * (the run of losses never ends, so there is exactly one transition: the
 * task logs and PMU records never fit again, and a flip that does fit is
 * not theirs), and the stop event carries the final counts.
 */
TEST_F(nl, loss_event)
{
	unsigned int dev = pick_dev(4);
	struct npuprof_nl_event ev;
	struct vnpu_prof_start ps;
	struct vnpu_prof_stats st;
	int fd = vnpu_open_dev(dev, O_RDWR), more = 0;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, npuprof_nl_subscribe(self->nl, &self->err)) TH_LOG("%s", self->err.msg);
	ASSERT_EQ(0, vnpu_prof_start(fd, VNPU_PROF_L1, -1, 1, 0, &ps));
	ASSERT_EQ(0, run_tasks(fd, 200));
	ASSERT_EQ(0, wait_event(self->nl, NPUPROF_NL_EV_RECORDS_LOST, dev, ps.session_id, &ev, 0,
				NULL, &self->err))
	TH_LOG("%s", self->err.msg);
	ASSERT_EQ(0, vnpu_prof_stats(fd, &st));
	EXPECT_EQ(VNPU_PROF_L1, ev.level);
	EXPECT_GT(ev.lost, 0);
	EXPECT_LE(ev.lost, st.lost);
	EXPECT_LE(ev.produced, st.produced);
	EXPECT_GT(ev.produced, ev.lost);

	/* more loss in the same run: no second event */
	ASSERT_EQ(0, run_tasks(fd, 50));
	ASSERT_EQ(0, vnpu_prof_stop(fd));
	ASSERT_EQ(0, vnpu_prof_stats(fd, &st));
	ASSERT_EQ(0, wait_event(self->nl, NPUPROF_NL_EV_SESSION_STOPPED, dev, ps.session_id, &ev,
				NPUPROF_NL_EV_RECORDS_LOST, &more, &self->err))
	TH_LOG("%s", self->err.msg);
	EXPECT_EQ(0, more);
	/* L1: two logs and a PMU record a task, and the streams' flips */
	EXPECT_EQ(3 * 250 + vnpu_chan_produced(fd, &ps, VNPU_CH_TS_TRACK), ev.produced);
	EXPECT_EQ(st.produced, ev.produced);
	EXPECT_EQ(st.lost, ev.lost);
	close(fd);
}

/* Anybody can read the state and listen; only CAP_NET_ADMIN can reset counters. */
TEST_F(nl, unprivileged_reset_is_eperm)
{
	unsigned int dev = pick_dev(5);
	struct npuprof_nl_dev before, after;
	int fd = vnpu_open_dev(dev, O_RDWR), status;
	pid_t pid;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, run_tasks(fd, 3));
	close(fd);
	ASSERT_EQ(0, npuprof_nl_get(self->nl, dev, &before, &self->err));
	ASSERT_GT(before.tasks_run, 0);

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		struct npuprof_error err;
		struct npuprof_nl_dev d;
		struct npuprof_nl *nl;

		if (vnpu_become_nobody(0))
			_exit(10);
		if (npuprof_nl_open(&nl, &err))
			_exit(11);
		if (npuprof_nl_get(nl, dev, &d, &err) || d.id != dev)
			_exit(12);
		if (npuprof_nl_dump(nl, NULL, 0, &err) <= 0)
			_exit(13);
		if (npuprof_nl_reset_stats(nl, dev, &err) != -EPERM || err.code != -EPERM)
			_exit(14);
		if (npuprof_nl_subscribe(nl, &err))
			_exit(15);
		npuprof_nl_close(nl);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
	TH_LOG("child step %d failed (10 drop, 11 open, 12 get, 13 dump, 14 reset not -EPERM, "
	       "15 subscribe)",
	       WEXITSTATUS(status));
	ASSERT_EQ(0, npuprof_nl_get(self->nl, dev, &after, &self->err));
	EXPECT_EQ(before.tasks_run, after.tasks_run);
}

/* Root resets: DEVICE_RESET arrives and tasks_run starts again from 0. */
TEST_F(nl, reset_stats)
{
	unsigned int dev = pick_dev(6);
	struct npuprof_nl_event ev;
	struct npuprof_nl_dev d;
	int fd = vnpu_open_dev(dev, O_RDWR);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, run_tasks(fd, 5));
	ASSERT_EQ(0, npuprof_nl_get(self->nl, dev, &d, &self->err));
	ASSERT_GE(d.tasks_run, 5);
	ASSERT_EQ(0, npuprof_nl_subscribe(self->nl, &self->err)) TH_LOG("%s", self->err.msg);
	ASSERT_EQ(0, npuprof_nl_reset_stats(self->nl, dev, &self->err)) TH_LOG("%s",
										 self->err.msg);
	ASSERT_EQ(0, wait_event(self->nl, NPUPROF_NL_EV_DEVICE_RESET, dev, 0, &ev, 0, NULL,
				&self->err))
	TH_LOG("%s", self->err.msg);
	EXPECT_EQ(0, ev.session);
	ASSERT_EQ(0, npuprof_nl_get(self->nl, dev, &d, &self->err));
	EXPECT_EQ(0, d.tasks_run);
	ASSERT_EQ(0, run_tasks(fd, 3));
	ASSERT_EQ(0, npuprof_nl_get(self->nl, dev, &d, &self->err));
	EXPECT_EQ(3, d.tasks_run);
	close(fd);
}

/* ---- real clients on the shared host root ---- */

/* The full path of @name in the usual directories, or NULL. */
static const char *find_bin(const char *name, char *buf, size_t len)
{
	static const char *const dirs[] = { "/usr/sbin", "/usr/bin", "/sbin", "/bin" };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(buf, len, "%s/%s", dirs[i], name);
		if (access(buf, X_OK) == 0)
			return buf;
	}
	return NULL;
}

/* Run @cmd; its output (up to @len - 1 bytes) in @out; its exit status. */
static int run_cmd(const char *cmd, char *out, size_t len)
{
	FILE *f = popen(cmd, "r");
	size_t n = 0, r;

	out[0] = '\0';
	if (!f)
		return -1;
	while (n < len - 1 && (r = fread(out + n, 1, len - 1 - n, f)) > 0)
		n += r;
	out[n] = '\0';
	return pclose(f);
}

TEST(iproute2_genl_lists_family)
{
	static char out[1 << 16];
	char bin[64], cmd[128];

	if (!find_bin("genl", bin, sizeof(bin)))
		SKIP(return, "iproute2's genl is not installed");
	snprintf(cmd, sizeof(cmd), "%s ctrl list 2>&1", bin);
	ASSERT_EQ(0, run_cmd(cmd, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "Name: " VNPU_GENL_NAME "\n")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "name: " VNPU_GENL_MCGRP_EVENTS)) TH_LOG("%s", out);
	snprintf(cmd, sizeof(cmd), "%s ctrl get name %s 2>&1", bin, VNPU_GENL_NAME);
	ASSERT_EQ(0, run_cmd(cmd, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "Version: 0x1")) TH_LOG("%s", out);
}

TEST(libnl_genl_ctrl_list_lists_family)
{
	static char out[1 << 16];
	char bin[64], cmd[128];

	if (!find_bin("genl-ctrl-list", bin, sizeof(bin)))
		SKIP(return, "libnl's genl-ctrl-list (libnl-utils) is not installed");
	snprintf(cmd, sizeof(cmd), "%s 2>&1", bin);
	ASSERT_EQ(0, run_cmd(cmd, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, " " VNPU_GENL_NAME " version 1\n")) TH_LOG("%s", out);
}

TEST_HARNESS_MAIN
