/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vnpu: the generic netlink family "vnpu" (vnpu_nl.c, docs/netlink.md).
 */
#ifndef _VNPU_NL_FAMILY_H
#define _VNPU_NL_FAMILY_H

struct vnpu_device;
struct vnpu_prof;

int vnpu_nl_init(void);
void vnpu_nl_exit(void);
void vnpu_nl_session_started(struct vnpu_device *vdev, const struct vnpu_prof *prof);
void vnpu_nl_session_stopped(struct vnpu_device *vdev, const struct vnpu_prof *prof);
void vnpu_nl_records_lost(struct vnpu_device *vdev, struct vnpu_prof *prof);

#endif /* _VNPU_NL_FAMILY_H */
