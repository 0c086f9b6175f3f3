// The batch tools' documents (replay.json of a replay or a hunt) written
// as files: rendered by jansson, then written atomically.
#include <stdlib.h>
#include <string.h>

#include "tools/tools.h"

struct irs_error *
irs_json_write(const char *dir, const char *name, json_t *doc, size_t flags)
{
	char *text = doc ? json_dumps(doc, flags) : NULL;
	json_decref(doc);
	if (!text)
		return &irs_enomem;
	char *path = irs_path_join(dir, name);
	struct irs_error *err = path ? irs_file_write(path, text, strlen(text))
				: &irs_enomem;
	free(path);
	free(text);
	return err;
}
