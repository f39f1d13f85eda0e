// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: a communicator of every rank of a multi-process job, from
 * the environment a launcher sets (npuprof run --ranks N, or any other):
 *
 *   RANK_ID             this process's rank, 0 .. RANK_SIZE - 1 (HCCL's)
 *   RANK_SIZE           the number of ranks, 2 .. 16 (HCCL's)
 *   NPUPROF_ROOT_INFO   a file path the ranks share: rank 0 writes the
 *                       communicator's key there (HCCL's root info, which
 *                       a job hands out by its own means), the others
 *                       wait for it and join with it
 *
 * The key file is written to a temporary name and renamed, so a reader
 * never sees half a key; it is mode 0600, the key being what lets a
 * process join. A rank that waits longer than @timeout_ms for it gets
 * -ETIMEDOUT, naming the file.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runtime/runtime.h"

static int env_u32(const char *name, uint32_t min, uint32_t max, uint32_t *out,
		   struct npuprof_error *err)
{
	const char *s = getenv(name);
	unsigned long v;
	char *end;

	if (!s || !*s)
		return npx_set_error(err, -EINVAL, "%s is not set", name);
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || *s == '-' || v < min || v > max)
		return npx_set_error(err, -EINVAL, "%s '%s' is not a number in %u..%u", name, s,
				     min, max);
	*out = (uint32_t)v;
	return 0;
}

static int write_key(const char *path, const struct npuprof_comm_key *key,
		     struct npuprof_error *err)
{
	char tmp[PATH_MAX], hex[NPUPROF_COMM_KEY_STRLEN + 1];
	size_t done;
	int fd, ret = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid()) >= (int)sizeof(tmp))
		return npx_set_error(err, -ENAMETOOLONG, "NPUPROF_ROOT_INFO '%s' is too long",
				     path);
	npuprof_comm_key_format(key, hex);
	strcat(hex, "\n");
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return npx_set_error(err, -errno, "cannot create %s: %s", tmp, strerror(errno));
	ret = npx_write_at(fd, hex, strlen(hex), -1, &done);
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret) {
		unlink(tmp);
		return npx_set_error(err, ret, "cannot write the root info %s: %s", path,
				     strerror(-ret));
	}
	return 0;
}

/* ns, not ms: a deadline in truncated ms could come up to 1 ms early */
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Wait for rank 0's key: poll(2)'s @timeout_ms (negative: forever). */
static int read_key(const char *path, int timeout_ms, struct npuprof_comm_key *key,
		    struct npuprof_error *err)
{
	uint64_t deadline = now_ns() + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0) * 1000000u;
	char hex[NPUPROF_COMM_KEY_STRLEN + 8];

	for (;;) {
		FILE *f = fopen(path, "re");

		if (f) {
			int ok = fgets(hex, sizeof(hex), f) != NULL;

			fclose(f);
			hex[strcspn(hex, "\n")] = '\0';
			if (!ok || npuprof_comm_key_parse(hex, key, NULL))
				return npx_set_error(err, -EBADMSG, "the root info %s is not a key",
						     path);
			return 0;
		}
		if (errno != ENOENT)
			return npx_set_error(err, -errno, "cannot read the root info %s: %s", path,
					     strerror(errno));
		if (timeout_ms >= 0 && now_ns() >= deadline)
			return npx_set_error(err, -ETIMEDOUT,
					     "rank 0 wrote no root info to %s within %d ms", path,
					     timeout_ms);
		usleep(10 * 1000);
	}
}

NPUPROF_API int npuprof_comm_init_ranks(struct npuprof_dev *dev, int timeout_ms, uint32_t *comm,
					uint32_t *rank, uint32_t *nranks, struct npuprof_error *err)
{
	const char *path = getenv("NPUPROF_ROOT_INFO");
	struct npuprof_comm_key key;
	uint32_t r, n;
	int ret;

	npx_clear_error(err);
	if (!dev || !comm)
		return npx_set_error(err, -EINVAL, "npuprof_comm_init_ranks: NULL argument");
	*comm = 0;
	ret = env_u32("RANK_SIZE", 2, VNPU_MAX_DEVICES, &n, err);
	if (!ret)
		ret = env_u32("RANK_ID", 0, n - 1, &r, err);
	if (!ret && (!path || !*path))
		ret = npx_set_error(err, -EINVAL, "NPUPROF_ROOT_INFO is not set");
	if (ret)
		return ret;
	if (r == 0) {
		ret = npuprof_comm_create(dev, n, 0, &key, comm, err);
		if (!ret)
			ret = write_key(path, &key, err);
		if (ret && *comm) {
			npuprof_comm_destroy(dev, *comm, NULL);
			*comm = 0;
		}
	} else {
		ret = read_key(path, timeout_ms, &key, err);
		if (!ret)
			ret = npuprof_comm_join(dev, &key, n, r, comm, err);
		if (ret)
			*comm = 0;
	}
	if (!ret && rank)
		*rank = r;
	if (!ret && nranks)
		*nranks = n;
	return ret;
}
