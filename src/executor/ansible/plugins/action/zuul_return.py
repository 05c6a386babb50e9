# The `zuul_return` action (docs/executor.md#zuul_return): a playbook returns data to Sluice.
#
# Arguments: `data` (a mapping), `secret_data` (a mapping), `file` and `secret_file` (JSON
# files holding such a mapping) and `path` (where the results go; by default the file named by
# SLUICE_ZUUL_RETURN_FILE, the build's `zuul.executor.result_data_file`). Each call merges into
# what earlier calls returned: mappings merge key by key, other values replace, except
# `zuul.artifacts` and `zuul.warnings`, whose lists are joined, `zuul.file_comments`, whose
# comments per file are joined, and `zuul.retry`, which a later call without it keeps. The
# artifacts and warnings are checked. The file holds {"data": ..., "secret_data": ...}.
# Written for Sluice; it runs where ansible-playbook runs (the sandbox for untrusted playbooks).
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import json
import os
import tempfile

from ansible.errors import AnsibleActionFail
from ansible.plugins.action import ActionBase


def zuul_part(data):
    value = data.get('zuul') if isinstance(data, dict) else None
    return value if isinstance(value, dict) else {}


def joined_list(new, old, key):
    a = zuul_part(new).get(key, [])
    b = zuul_part(old).get(key, [])
    return (b if isinstance(b, list) else []) + (a if isinstance(a, list) else [])


def joined_comments(new, old):
    merged = copy.deepcopy(zuul_part(old).get('file_comments') or {})
    if not isinstance(merged, dict):
        merged = {}
    for path, comments in (zuul_part(new).get('file_comments') or {}).items():
        merged.setdefault(path, [])
        merged[path].extend(comments if isinstance(comments, list) else [])
    return merged


def deep_merge(new, old):
    for key, value in new.items():
        if isinstance(value, dict) and isinstance(old.get(key), dict):
            deep_merge(value, old[key])
        else:
            old[key] = copy.deepcopy(value)
    return old


def merge(new, old):
    """Merge the returned mapping `new` into `old`."""
    if not isinstance(new, dict):
        raise AnsibleActionFail('zuul_return data must be a mapping, not %s' % type(new).__name__)
    artifacts = joined_list(new, old, 'artifacts')
    warnings = joined_list(new, old, 'warnings')
    comments = joined_comments(new, old)
    retry = zuul_part(new).get('retry', zuul_part(old).get('retry'))
    deep_merge(new, old)
    zuul = old.get('zuul')
    if isinstance(zuul, dict):
        for key, value in (('artifacts', artifacts), ('warnings', warnings), ('file_comments', comments)):
            if value:
                zuul[key] = value
        if retry is not None:
            zuul['retry'] = retry
    return old


def check(data):
    zuul = zuul_part(data)
    artifacts = zuul.get('artifacts', [])
    if not isinstance(artifacts, list):
        raise AnsibleActionFail('zuul.artifacts must be a list')
    for artifact in artifacts:
        if not isinstance(artifact, dict):
            raise AnsibleActionFail('every entry of zuul.artifacts must be a mapping')
        for key in ('name', 'url'):
            if not isinstance(artifact.get(key), str) or artifact.get(key) == '':
                raise AnsibleActionFail('an artifact needs a %s (a non-empty string)' % key)
        if 'metadata' in artifact and not isinstance(artifact['metadata'], dict):
            raise AnsibleActionFail('the metadata of artifact %s must be a mapping' % artifact['name'])
        extra = set(artifact) - set(['name', 'url', 'metadata'])
        if extra:
            raise AnsibleActionFail('artifact %s has unknown keys: %s' % (artifact['name'], ', '.join(sorted(extra))))
    warnings = zuul.get('warnings', [])
    if not isinstance(warnings, list) or not all(isinstance(w, str) for w in warnings):
        raise AnsibleActionFail('zuul.warnings must be a list of strings')


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise AnsibleActionFail('zuul_return could not read %s: %s' % (path, e))


class ActionModule(ActionBase):
    TRANSFERS_FILES = False
    _VALID_ARGS = frozenset(('data', 'secret_data', 'file', 'secret_file', 'path'))

    def run(self, tmp=None, task_vars=None):
        result = super(ActionModule, self).run(tmp, task_vars)
        args = self._task.args
        path = args.get('path') or os.environ.get('SLUICE_ZUUL_RETURN_FILE')
        if not path:
            raise AnsibleActionFail('zuul_return: no results file (SLUICE_ZUUL_RETURN_FILE is not set)')
        current = {'data': {}, 'secret_data': {}}
        if os.path.exists(path):
            text = open(path).read()
            if text.strip():
                loaded = json.loads(text)
                current['data'] = loaded.get('data') or {}
                current['secret_data'] = loaded.get('secret_data') or {}
        for key, file_key in (('data', 'file'), ('secret_data', 'secret_file')):
            if args.get(file_key):
                merge(load_json(args[file_key]), current[key])
            if args.get(key):
                merge(args[key], current[key])
            check(current[key])
        directory = os.path.dirname(os.path.abspath(path))
        fd, tmp_path = tempfile.mkstemp(dir=directory)
        try:
            with os.fdopen(fd, 'w') as f:
                json.dump(current, f)
            os.rename(tmp_path, path)
        except Exception:
            os.unlink(tmp_path)
            raise
        result['changed'] = False
        return result
