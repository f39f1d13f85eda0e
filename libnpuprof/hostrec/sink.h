/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof hostrec/: the host sink's insides, private to hostrec/ and
 * shared by its two files: host_sink.c (the buffers under the one lock,
 * the files of host/data, the sink's life) and host_records.c (what each
 * runtime call records).
 */
#ifndef NPH_SINK_H
#define NPH_SINK_H

#include <limits.h>

#include "hostrec/hostrec.h"

/* The record kinds of host/data, each its own files. */
enum nph_kind {
	NPH_K_API, /* api_event */
	NPH_K_NODE, /* node_basic_info of static ops */
	NPH_K_NODE_AGING, /* node_basic_info of dynamic ops */
	NPH_K_TENSOR, /* tensor_info */
	NPH_K_CTX_ID, /* context_id_info */
	NPH_K_TRACK, /* task_track */
	NPH_K_HCCL_OP, /* hccl_op_info */
	NPH_K_HCCL_INFO, /* hccl_info */
	NPH_K_HASH, /* hash_dic, text */
	NPH_K_TYPE, /* type_info_dic, text */
	NPH_K_COUNT
};

struct nph_buf {
	unsigned char *p;
	size_t n, cap;
};

/**
 * struct nph_kind_file - the files of one kind
 * @fd: the current slice, -1 before the first record.
 * @slice: its number.
 * @bytes: bytes in it (whole records).
 * @path: its name.
 */
struct nph_kind_file {
	int fd;
	unsigned int slice;
	uint64_t bytes;
	char path[PATH_MAX];
};

/**
 * struct nph_sink - see hostrec/hostrec.h
 * @dir: host/data.
 * @level: enum vnpu_prof_level.
 * @buf: under host_lock: the records buffered, per kind.
 * @spare: the writer's.
 * @produced: under host_lock: records made, per kind (bytes for text).
 * @nomem: under host_lock: records dropped for want of memory, per kind.
 * @hashes: under host_lock: the hashes in hash_dic (a set: no values).
 * @epoch: under host_lock: per device, per hw stream, the epoch its host
 *         flips reached (allocated at a device's first launch).
 * @file: the writer's.
 * @error: the first write failure (negative errno); nothing written after.
 * @error_path: its file.
 * @written: records written, per kind.
 * @dropped: records not written (write failures), per kind.
 * @wake: called under host_lock when FLUSH_BYTES are buffered.
 */
struct nph_sink {
	char dir[PATH_MAX];
	uint32_t level;
	struct nph_buf buf[NPH_K_COUNT];
	struct nph_buf spare[NPH_K_COUNT];
	uint64_t produced[NPH_K_COUNT];
	uint64_t nomem[NPH_K_COUNT];
	struct npx_hmap hashes;
	uint32_t *epoch[VNPU_MAX_DEVICES];
	struct nph_kind_file file[NPH_K_COUNT];
	int error;
	char error_path[PATH_MAX];
	uint64_t written[NPH_K_COUNT];
	uint64_t dropped[NPH_K_COUNT];
	void (*wake)(void *);
	void *wake_arg;
	size_t since_wake;
	char (*aclnn)[VNPU_OP_TYPE_LEN];
	uint32_t naclnn, last_aclnn;
};

/* ---- host_sink.c: under the lock nph_sink_lock() took ---- */

/* the installed sink, its lock taken; NULL (and no lock) when none */
struct nph_sink *nph_sink_lock(void);
/* wake the writer when enough is buffered, and let the lock go */
void nph_sink_unlock(struct nph_sink *s);
/* room for @n more bytes of kind @k (zeroed), or NULL (counted as dropped) */
void *nph_reserve(struct nph_sink *s, enum nph_kind k, size_t n);
void nph_append_text(struct nph_sink *s, enum nph_kind k, const char *text);
/* the hash_dic id of @name, added to hash_dic the first time */
uint64_t nph_name_hash(struct nph_sink *s, const char *name);
/* the calling thread's id, asked of the kernel once per thread */
uint32_t nph_this_tid(void);

/* ---- host_records.c ---- */

/* type_info_dic: the names of the record types, written when a sink is made */
void nph_put_type_names(struct nph_sink *s);

#endif /* NPH_SINK_H */
