#ifndef RECENTS_CHTTPSHIM_H
#define RECENTS_CHTTPSHIM_H
int chttpshim_placeholder(void);
#endif
