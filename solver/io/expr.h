/* expr.h — arithmetic expressions in x and y, the third kind of field value in a scenario
 * file (scenario.h gives the grammar).  An expression is compiled once into a small tree
 * and then evaluated at every sample point.
 *
 *   expr *e = expr_compile("1 - cos(2*pi*x)/2");
 *   double v = expr_eval(e, x, y);
 *   expr_free(e);
 *
 * Compile errors name the column (1-based) of the offending character, e.g.
 *   "column 5: expected a number, x, y, pi, a function or '(' but found '*'"
 */
#ifndef SWGL_EXPR_H
#define SWGL_EXPR_H

#include "swgl_error.h"

typedef struct expr expr;

/* Returns NULL on a syntax error or out of memory, with a one-line message in
 * swgl_last_error(). */
expr *expr_compile(const char *text);
double expr_eval(const expr *e, double x, double y);
int expr_uses_xy(const expr *e);        /* 1 if x, y, X or Y appears: not a constant */
/* X and Y are map coordinates: x + xll, y + yll (both 0 until this is called). */
void expr_set_origin(expr *e, double xll, double yll);
void expr_free(expr *e);                /* NULL is fine */

#endif
