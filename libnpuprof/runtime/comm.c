// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: communicators, the groups of ranks that collectives run on,
 * as HCCL's are. Rank 0 makes one and gets its key (HCCL's root info,
 * HcclGetRootInfo); it hands the key to the other ranks, as text if it
 * must cross a process boundary (npuprof_comm_key_format()); each rank
 * joins with it from its own device (HcclCommInitRootInfo) and names the
 * handle it gets in its COMMUNICATION tasks.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "npuprof.h"
#include "runtime/runtime.h"
#include "hostrec/hostrec.h"

static int comm_init(struct npuprof_dev *dev, uint32_t flags, uint32_t nranks, uint32_t rank,
		     struct npuprof_comm_key *key, uint32_t *comm, struct npuprof_error *err)
{
	struct vnpu_comm_init ci = {
		.size = sizeof(ci),
		.flags = flags,
		.nranks = nranks,
		.rank = rank,
	};
	int ret;

	if (!(flags & VNPU_COMM_F_CREATE))
		memcpy(ci.key, key->bytes, sizeof(ci.key));
	if (ioctl(dev->fd, VNPU_IOC_COMM_INIT, &ci)) {
		ret = -errno;
		return npx_set_error(err, ret, "vnpu%u: cannot %s rank %u of %u: %s", dev->rec.id,
				     flags & VNPU_COMM_F_CREATE ? "create a communicator as"
								: "join a communicator as",
				     rank, nranks, strerror(-ret));
	}
	if (flags & VNPU_COMM_F_CREATE)
		memcpy(key->bytes, ci.key, sizeof(key->bytes));
	*comm = ci.comm_id;
	if (ci.comm_id && ci.comm_id <= NPH_MAX_COMMS) {
		struct nph_comm_info *c = &dev->rec.comms[ci.comm_id - 1];
		uint64_t h = npx_fnv1a64(ci.key, sizeof(ci.key));

		c->nranks = nranks;
		c->rank = rank;
		snprintf(c->group, sizeof(c->group), "127.0.0.1%%lo_60000_0_%016llu",
			 (unsigned long long)(h % 10000000000000000ull));
	}
	return 0;
}

NPUPROF_API int npuprof_comm_create(struct npuprof_dev *dev, uint32_t nranks, uint32_t rank,
				    struct npuprof_comm_key *key, uint32_t *comm,
				    struct npuprof_error *err)
{
	npx_clear_error(err);
	if (!dev || !key || !comm)
		return npx_set_error(err, -EINVAL, "npuprof_comm_create: NULL argument");
	return comm_init(dev, VNPU_COMM_F_CREATE, nranks, rank, key, comm, err);
}

NPUPROF_API int npuprof_comm_join(struct npuprof_dev *dev, const struct npuprof_comm_key *key,
				  uint32_t nranks, uint32_t rank, uint32_t *comm,
				  struct npuprof_error *err)
{
	struct npuprof_comm_key k;

	npx_clear_error(err);
	if (!dev || !key || !comm)
		return npx_set_error(err, -EINVAL, "npuprof_comm_join: NULL argument");
	k = *key;
	return comm_init(dev, 0, nranks, rank, &k, comm, err);
}

NPUPROF_API int npuprof_comm_destroy(struct npuprof_dev *dev, uint32_t comm,
				     struct npuprof_error *err)
{
	struct vnpu_comm_destroy cd = { .size = sizeof(cd), .comm_id = comm };
	int ret;

	npx_clear_error(err);
	if (!dev)
		return npx_set_error(err, -EINVAL, "npuprof_comm_destroy: NULL device");
	if (ioctl(dev->fd, VNPU_IOC_COMM_DESTROY, &cd)) {
		ret = -errno;
		return npx_set_error(err, ret, "vnpu%u: cannot destroy communicator %u: %s",
				     dev->rec.id, comm, strerror(-ret));
	}
	if (comm <= NPH_MAX_COMMS)
		memset(&dev->rec.comms[comm - 1], 0, sizeof(dev->rec.comms[0]));
	return 0;
}

NPUPROF_API void npuprof_comm_key_format(const struct npuprof_comm_key *key,
					 char out[NPUPROF_COMM_KEY_STRLEN])
{
	for (size_t i = 0; i < sizeof(key->bytes); i++)
		snprintf(out + 2 * i, 3, "%02x", key->bytes[i]);
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

NPUPROF_API int npuprof_comm_key_parse(const char *hex, struct npuprof_comm_key *key,
				       struct npuprof_error *err)
{
	npx_clear_error(err);
	if (!hex || !key)
		return npx_set_error(err, -EINVAL, "npuprof_comm_key_parse: NULL argument");
	if (strlen(hex) != 2 * sizeof(key->bytes))
		return npx_set_error(err, -EINVAL,
				     "communicator key '%.80s': %zu characters, not %zu hex digits",
				     hex, strlen(hex), 2 * sizeof(key->bytes));
	for (size_t i = 0; i < sizeof(key->bytes); i++) {
		int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return npx_set_error(err, -EINVAL,
					     "communicator key '%s': not a hex digit at %zu", hex,
					     2 * i + (hi < 0 ? 0 : 1));
		key->bytes[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}
