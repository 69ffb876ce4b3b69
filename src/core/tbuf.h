/* tbuf.h — the bounded writer moved into the text kit, croupier/text.h
 * (cr_tbuf, cr_tb_init, cr_tb_printf, cr_tb_json_str, unchanged).  This
 * header stays only for the games' files that still include it; new code
 * includes croupier/text.h. */
#ifndef CROUPIER_TBUF_H
#define CROUPIER_TBUF_H

#include "croupier/text.h"

#endif
