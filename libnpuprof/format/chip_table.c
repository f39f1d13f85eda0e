// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Ascend's chips as msprof tells them apart (info.json's platform_version,
 * msprof's ChipModel): one row per chip, one bit per feature that changes
 * what is written or read. Every "is this chip X?" of the library, on the
 * writing side and the reading side, is a lookup here; the device's own
 * product table (kmod/vnpu_product.c) says which chip each product is.
 */
#include "format/format.h"

static const struct npf_chip chips[] = {
	{ 0, NPF_CHIP_FREQ },
	/* Atlas training series: HWTS, and no task type names in msprof */
	{ 1, NPF_CHIP_READ | NPF_CHIP_HWTS | NPF_CHIP_SQE_OTHER },
	{ 2, NPF_CHIP_HWTS },
	{ 3, NPF_CHIP_HWTS },
	/* Atlas inference series */
	{ 4, NPF_CHIP_READ | NPF_CHIP_HWTS | NPF_CHIP_FREQ },
	/* Atlas A2/A3 */
	{
		5,
		NPF_CHIP_READ | NPF_CHIP_CPP_PATH | NPF_CHIP_FREQ | NPF_CHIP_FREQ_CPP |
			NPF_CHIP_FFTS_PLUS | NPF_CHIP_PIPE_EXCT,
	},
	/* Atlas 200I/500 A2: STARS, its PMU columns as the V1_1 chips' */
	{ 7, NPF_CHIP_READ | NPF_CHIP_V1_1 | NPF_CHIP_FREQ },
	{ 8, NPF_CHIP_FREQ },
	{ 9, NPF_CHIP_FREQ },
	{ 11, NPF_CHIP_FREQ },
	/* Atlas 350: its own v6 records */
	{ 15, NPF_CHIP_READ | NPF_CHIP_CPP_PATH | NPF_CHIP_FREQ | NPF_CHIP_V6 },
	{ 16, NPF_CHIP_CPP_PATH | NPF_CHIP_FREQ },
};

/* a chip msprof does not know: only what every chip has */
static const struct npf_chip unknown = { UINT32_MAX, NPF_CHIP_FREQ };

const struct npf_chip *npf_chip(uint32_t id)
{
	for (size_t i = 0; i < NPX_ARRAY_SIZE(chips); i++)
		if (chips[i].id == id)
			return &chips[i];
	return &unknown;
}

bool npf_chip_known(uint32_t id)
{
	return npf_chip(id) != &unknown;
}

bool npf_chip_has(uint32_t id, unsigned int feature)
{
	return npf_chip(id)->features & feature;
}
