#include "CHTTPShim.h"
int chttpshim_placeholder(void) { return 0; }
