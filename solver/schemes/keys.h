/* keys.h — scheme_keys_install: registers every scheme's keys with the scenario reader;
 * call it (any number of times) before reading a scenario. */
#ifndef SWGL_SCHEME_KEYS_H
#define SWGL_SCHEME_KEYS_H

void scheme_keys_install(void);

#endif
