// SPDX-License-Identifier: GPL-2.0
/*
 * npuprof_set_print(): the library's own messages go to the program's
 * function, or nowhere, instead of stderr; and the version calls agree
 * with the header. The messages come from an export of a copy of msprof's
 * sample with its task log cut short, which warns about the cut.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "host/msprof_reference.h"
#include "npuprof.h"

struct seen {
	int calls;
	enum npuprof_print_level level;
	char text[2048];
};

/* the print function's state: the harness gives it no argument */
static struct seen seen;

static int capture(enum npuprof_print_level level, const char *fmt, va_list ap)
{
	size_t n = strlen(seen.text);

	seen.calls++;
	seen.level = level;
	return vsnprintf(seen.text + n, sizeof(seen.text) - n, fmt, ap);
}

FIXTURE(cut)
{
	char tmp[32];
	char prof[PATH_MAX + 64];
	bool have;
};

/* a copy of the sample whose stars_soc slice lost its last 10 bytes */
FIXTURE_SETUP(cut)
{
	char ref[PATH_MAX], cmd[4 * PATH_MAX];

	self->have = !msprof_reference_dir(ref, sizeof(ref));
	if (!self->have)
		SKIP(return, "no ../shared/reference (set VNPU_REFERENCE): msprof's sample is not "
			     "here");
	snprintf(self->tmp, sizeof(self->tmp), "/tmp/npuprof-print-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->tmp));
	snprintf(self->prof, sizeof(self->prof), "%s/%s", self->tmp,
		 strrchr(MSPROF_SAMPLE, '/') + 1);
	snprintf(cmd, sizeof(cmd),
		 "cp -r '%s/" MSPROF_SAMPLE "' '%s' && rm -rf '%s/mindstudio_profiler_output' && "
		 "f=$(ls '%s'/device_0/data/stars_soc.data.*.slice_0 | head -1) && "
		 "truncate -s -10 \"$f\"",
		 ref, self->tmp, self->prof, self->prof);
	ASSERT_EQ(0, system(cmd));
	memset(&seen, 0, sizeof(seen));
}

FIXTURE_TEARDOWN(cut)
{
	char cmd[64];

	npuprof_set_print(NULL);
	if (!self->have)
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->tmp);
	if (system(cmd))
		TH_LOG("could not remove %s", self->tmp);
}

static int export_it(const char *prof)
{
	NPUPROF_OPTS(npuprof_export_opts, eo, .timestamp = "20260101000000");

	return npuprof_export(prof, &eo, NULL);
}

TEST_F(cut, warnings_go_to_the_print_function)
{
	if (!self->have)
		return;
	npuprof_set_print(capture);
	ASSERT_EQ(0, export_it(self->prof));
	EXPECT_LE(1, seen.calls);
	EXPECT_EQ(NPUPROF_WARN, seen.level);
	EXPECT_EQ(0, strncmp(seen.text, "npuprof: warning: ", 18)) TH_LOG("%s", seen.text);
	EXPECT_NE(NULL, strstr(seen.text, "stars_soc")) TH_LOG("%s", seen.text);
	EXPECT_EQ('\n', seen.text[strlen(seen.text) - 1]);
}

TEST_F(cut, null_prints_nothing_and_the_previous_is_returned)
{
	int err_pipe[2], saved;
	char buf[256];
	ssize_t n;

	if (!self->have)
		return;
	saved = dup(2);

	ASSERT_EQ(0, pipe(err_pipe));
	EXPECT_NE(NULL, npuprof_set_print(NULL)); /* the stderr default */
	EXPECT_EQ(NULL, npuprof_set_print(capture));
	EXPECT_EQ((npuprof_print_fn)capture, npuprof_set_print(NULL));
	/* nothing reaches the process's stderr either */
	fcntl(err_pipe[0], F_SETFL, O_NONBLOCK);
	dup2(err_pipe[1], 2);
	EXPECT_EQ(0, export_it(self->prof));
	dup2(saved, 2);
	n = read(err_pipe[0], buf, sizeof(buf));
	EXPECT_GE(0, n) TH_LOG("stderr got %.*s", (int)n, buf);
	EXPECT_EQ(0, seen.calls);
	close(err_pipe[0]);
	close(err_pipe[1]);
}

TEST(versions_agree_with_the_header)
{
	char v[32];

	snprintf(v, sizeof(v), "%d.%d.%d", NPUPROF_VERSION_MAJOR, NPUPROF_VERSION_MINOR,
		 NPUPROF_VERSION_PATCH);
	EXPECT_STREQ(v, npuprof_version());
	EXPECT_EQ(NPUPROF_VERSION_MAJOR, npuprof_major_version());
	EXPECT_EQ(NPUPROF_VERSION_MINOR, npuprof_minor_version());
}

TEST_HARNESS_MAIN
