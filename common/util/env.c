// Environments for child processes: ours, with some variables set and
// some taken out (the debugger's IRSNAP_DIR, the reducer's LD_PRELOAD).
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

// Whether @p entry ("NAME=VALUE") names a variable of @p set (entries) or
// @p unset (names).
static bool
replaced(const char *entry, const char *const *set, const char *const *unset)
{
	const char *eq = strchr(entry, '=');
	size_t n = eq ? (size_t)(eq - entry) : strlen(entry);
	for (size_t i = 0; set && set[i]; i++)
		if (!strncmp(set[i], entry, n) && set[i][n] == '=')
			return true;
	for (size_t i = 0; unset && unset[i]; i++)
		if (strlen(unset[i]) == n && !strncmp(unset[i], entry, n))
			return true;
	return false;
}

char **
irs_env_edit(const char *const *set, const char *const *unset)
{
	size_t n = 0, nset = 0;
	while (environ[n])
		n++;
	while (set && set[nset])
		nset++;
	char **env = calloc(n + nset + 1, sizeof(*env));
	if (!env)
		return NULL;
	size_t k = 0;
	for (size_t i = 0; i < nset; i++)
		if (!(env[k++] = strdup(set[i])))
			goto oom;
	for (size_t i = 0; i < n; i++)
		if (!replaced(environ[i], set, unset) &&
		    !(env[k++] = strdup(environ[i])))
			goto oom;
	return env;
oom:
	irs_env_free(env);
	return NULL;
}

void
irs_env_free(char **env)
{
	for (size_t i = 0; env && env[i]; i++)
		free(env[i]);
	free(env);
}
