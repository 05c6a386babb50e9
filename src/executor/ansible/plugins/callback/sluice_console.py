# Sluice's Ansible output callback (docs/executor.md#the-console-callback).
#
# One stdout callback does everything Sluice needs from a playbook run:
# - the console: plays, tasks and per-host results as text lines on standard output, which the
#   executor timestamps into job-output.txt and streams live; the output of `command` and `shell`
#   tasks on hosts the executor can see (local connections) is followed line by line while the
#   task runs, from the files Sluice's `command` module writes into SLUICE_CONSOLE_DIR;
# - the structured output of this playbook (plays, tasks, host results, stats) as JSON in
#   SLUICE_PLAYBOOK_OUTPUT, which the executor adds to job-output.json;
# - the hosts found unreachable, one per line in SLUICE_UNREACHABLE_FILE (Ansible's exit code
#   does not tell an unreachable host from a parse error).
# Written for Sluice; it runs inside the bubblewrap sandbox with untrusted playbooks, so it
# only touches the paths it is given.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = '''
    name: sluice_console
    type: stdout
    short_description: Sluice console, structured output and unreachable hosts
    description:
      - Writes the console Sluice streams and the playbook's part of job-output.json.
'''

import copy
import datetime
import json
import os
import re
import sys
import threading
import time

from ansible.plugins.callback import CallbackBase
from ansible.vars.clean import strip_internal_keys

COMMAND_ACTIONS = frozenset([
    'command', 'shell',
    'ansible.builtin.command', 'ansible.builtin.shell',
    'ansible.legacy.command', 'ansible.legacy.shell',
])
DEBUG_ACTIONS = frozenset(['debug', 'ansible.builtin.debug', 'ansible.legacy.debug'])
CONSOLE_PREFIX = 'console-'
CONSOLE_SUFFIX = '.log'
# console-<task uuid>__<host>.log: task uuids hold single dashes only.
HOST_SEPARATOR = '__'
INJECTED_ARGS = ('sluice_console', 'sluice_split_streams')
# Seconds between two rewrites of the structured output while the playbook runs (it is always
# written when the playbook ends), so a killed playbook still leaves what it did.
OUTPUT_WRITE_INTERVAL = 1.0
FOLLOW_INTERVAL = 0.05


def utc_now():
    # The reference's times: ISO 8601, UTC, microseconds, 'Z'.
    return datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%S.%fZ')


def write_atomically(path, text):
    tmp = '%s.tmp' % path
    with open(tmp, 'w') as f:
        f.write(text)
    os.rename(tmp, path)


class ConsoleFollower(object):
    """Follows the console files of running command tasks and prints their complete lines."""

    def __init__(self, directory, emit):
        self.directory = directory
        self.emit = emit
        self.lock = threading.Lock()
        self.files = {}  # name -> [offset, pending bytes]
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name='sluice-console')
        self.thread.daemon = True

    def start(self):
        self.thread.start()

    def stop(self):
        self.stopped.set()
        self.thread.join(2)
        self.drain(None)

    def _run(self):
        while not self.stopped.wait(FOLLOW_INTERVAL):
            try:
                self.poll()
            except Exception:
                pass

    def _names(self):
        try:
            names = os.listdir(self.directory)
        except OSError:
            return []
        return sorted(n for n in names if n.startswith(CONSOLE_PREFIX) and n.endswith(CONSOLE_SUFFIX))

    def poll(self, final_name=None):
        with self.lock:
            for name in self._names():
                self._read(name, final=(final_name is not None and name == final_name))

    def drain(self, final_name):
        """Print what is left of one file (all files when None) and forget it."""
        with self.lock:
            for name in self._names():
                if final_name is None or name == final_name:
                    self._read(name, final=True)

    def _read(self, name, final):
        path = os.path.join(self.directory, name)
        state = self.files.setdefault(name, [0, b''])
        try:
            with open(path, 'rb') as f:
                f.seek(state[0])
                chunk = f.read()
        except OSError:
            chunk = b''
        state[0] += len(chunk)
        data = state[1] + chunk
        lines = data.split(b'\n')
        state[1] = lines.pop()
        host = name[len(CONSOLE_PREFIX):-len(CONSOLE_SUFFIX)].split(HOST_SEPARATOR, 1)[-1]
        for line in lines:
            self.emit('%s | %s' % (host, line.decode('utf-8', 'replace').rstrip('\r')))
        if final:
            if state[1]:
                self.emit('%s | %s' % (host, state[1].decode('utf-8', 'replace')))
            del self.files[name]
            try:
                os.unlink(path)
            except OSError:
                pass


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = 'stdout'
    CALLBACK_NAME = 'sluice_console'

    def __init__(self, display=None):
        super(CallbackModule, self).__init__(display)
        self._out_lock = threading.Lock()
        self._output_path = os.environ.get('SLUICE_PLAYBOOK_OUTPUT')
        self._unreachable_path = os.environ.get('SLUICE_UNREACHABLE_FILE')
        # The job's `ansible-split-streams`: keep stderr apart from stdout in command results.
        self._split_streams = os.environ.get('SLUICE_SPLIT_STREAMS') == '1'
        console_dir = os.environ.get('SLUICE_CONSOLE_DIR')
        self._console_dir = console_dir if console_dir and os.path.isdir(console_dir) else None
        self._follower = None
        if self._console_dir:
            self._follower = ConsoleFollower(self._console_dir, self._emit)
            self._follower.start()
        self._plays = []
        self._last_write = 0.0
        self._task = None
        self._streamed = set()

    # --- output -----------------------------------------------------------------------------

    def _emit(self, line):
        with self._out_lock:
            sys.stdout.write(line + '\n')
            sys.stdout.flush()

    def _log(self, text=''):
        for line in str(text).split('\n'):
            self._emit(line)

    def _host_lines(self, host, text):
        for line in str(text).split('\n'):
            self._emit('%s | %s' % (host, line))

    # --- structured output ------------------------------------------------------------------

    def _write_output(self, stats=None, force=False):
        if not self._output_path:
            return
        now = time.monotonic()
        if not force and now - self._last_write < OUTPUT_WRITE_INTERVAL:
            return
        self._last_write = now
        document = {'plays': self._plays}
        if stats is not None:
            document['stats'] = stats
        try:
            write_atomically(self._output_path, json.dumps(document, sort_keys=True, default=str))
        except (OSError, TypeError, ValueError) as e:
            self._emit('[sluice] the structured output could not be written: %s' % e)

    def _record(self, result, status):
        host = result._host.get_name()
        action = result._task.action
        clean = strip_internal_keys(copy.deepcopy(result._result))
        clean['action'] = action
        # The console file argument is Sluice's plumbing, not the task's.
        module_args = clean.get('invocation', {}).get('module_args')
        if isinstance(module_args, dict):
            for key in INJECTED_ARGS:
                module_args.pop(key, None)
        if status == 'failed':
            clean.setdefault('failed', True)
        elif status == 'skipped':
            clean.setdefault('skipped', True)
        elif status == 'unreachable':
            clean.setdefault('unreachable', True)
        if self._plays and self._plays[-1]['tasks']:
            task = self._plays[-1]['tasks'][-1]
            task['hosts'][host] = clean
            end = utc_now()
            task['task']['duration']['end'] = end
            self._plays[-1]['play']['duration']['end'] = end
        self._write_output()

    # --- plays and tasks --------------------------------------------------------------------

    def v2_playbook_on_play_start(self, play):
        name = play.get_name().strip()
        self._log('')
        self._log('PLAY [%s]' % name)
        start = utc_now()
        self._plays.append({
            'play': {'name': name, 'id': str(play._uuid), 'duration': {'start': start, 'end': start}},
            'tasks': [],
        })

    def _task_start(self, task, kind):
        self._task = task
        name = task.get_name().strip()
        self._log('')
        self._log('%s [%s]' % (kind, name))
        start = utc_now()
        entry = {
            'task': {'name': name, 'id': str(task._uuid), 'duration': {'start': start, 'end': start}},
            'hosts': {},
        }
        if task._role:
            entry['role'] = {
                'name': task._role.get_name(),
                'id': str(task._role._uuid),
                'path': task._role._role_path,
            }
        if self._plays:
            self._plays[-1]['tasks'].append(entry)
        if task.action in COMMAND_ACTIONS and self._split_streams:
            task.args['sluice_split_streams'] = True
        # The output of command tasks is followed live, never for no_log tasks.
        if (self._console_dir and task.action in COMMAND_ACTIONS and task.no_log in (None, False)):
            task.args['sluice_console'] = os.path.join(
                self._console_dir, '%s%s%s{{ inventory_hostname }}%s' % (CONSOLE_PREFIX, task._uuid, HOST_SEPARATOR, CONSOLE_SUFFIX))

    def v2_playbook_on_task_start(self, task, is_conditional):
        self._task_start(task, 'TASK')

    def v2_playbook_on_handler_task_start(self, task):
        self._task_start(task, 'RUNNING HANDLER')

    def v2_playbook_on_include(self, included_file):
        for host in included_file._hosts:
            self._emit('%s | included: %s' % (host.get_name(), included_file._filename))

    def _drain(self, result):
        """Print the rest of the host's live output before its result; True when it streamed."""
        if self._follower is None:
            return False
        name = '%s%s%s%s%s' % (CONSOLE_PREFIX, result._task._uuid, HOST_SEPARATOR, result._host.get_name(),
                                CONSOLE_SUFFIX)
        present = os.path.exists(os.path.join(self._console_dir, name)) or name in self._follower.files
        self._follower.drain(name)
        if present:
            self._streamed.add(name)
        return name in self._streamed

    # --- results ----------------------------------------------------------------------------

    def _show(self, result, status, item=None):
        host = result._host.get_name()
        res = result._result
        action = result._task.action
        streamed = self._drain(result)
        label = ''
        if item is not None:
            label = ' Item: %s' % self._get_item_label(res)
        if status == 'skipped':
            self._emit('%s | skipping%s' % (host, label))
            return
        if status == 'unreachable':
            self._emit('%s | UNREACHABLE!%s => %s' % (host, label, res.get('msg', '')))
            return
        if 'censored' in res:
            self._emit('%s | %s%s: %s' % (host, status, label, res['censored']))
            return
        if action in COMMAND_ACTIONS and 'rc' in res:
            if not streamed:
                for key in ('stdout', 'stderr'):
                    if res.get(key):
                        self._host_lines(host, res[key])
            runtime = ' Runtime: %s' % res['delta'] if res.get('delta') else ''
            if status == 'failed':
                self._emit('%s | FAILED%s: rc=%s%s' % (host, label, res.get('rc'), runtime))
                if res.get('msg') and res['msg'] != 'non-zero return code':
                    self._host_lines(host, res['msg'])
            else:
                self._emit('%s | %s%s:%s' % (host, status, label, runtime))
            return
        if action in DEBUG_ACTIONS and status != 'failed':
            if 'msg' in res:
                text = res['msg'] if isinstance(res['msg'], str) else json.dumps(res['msg'], indent=2, default=str)
                self._host_lines(host, text)
            else:
                shown = dict((k, v) for k, v in res.items() if k not in ('changed', 'failed'))
                self._host_lines(host, json.dumps(shown, indent=2, sort_keys=True, default=str))
            return
        if status == 'failed':
            shown = strip_internal_keys(copy.deepcopy(res))
            for key in ('invocation', 'stdout_lines', 'stderr_lines'):
                shown.pop(key, None)
            self._emit('%s | FAILED!%s => %s' % (host, label, shown.get('msg', '')))
            self._host_lines(host, json.dumps(shown, indent=2, sort_keys=True, default=str))
            return
        self._emit('%s | %s%s' % (host, status, label))

    def _status(self, result):
        return 'changed' if result._result.get('changed') else 'ok'

    def v2_runner_on_ok(self, result, **kwargs):
        self._show(result, self._status(result))
        self._handle_warnings(result._result)
        self._record(result, 'ok')

    def v2_runner_on_failed(self, result, ignore_errors=False, **kwargs):
        self._show(result, 'failed')
        if ignore_errors:
            self._emit('%s | ...ignoring' % result._host.get_name())
        self._handle_warnings(result._result)
        self._record(result, 'failed')

    def v2_runner_on_skipped(self, result, **kwargs):
        self._show(result, 'skipped')
        self._record(result, 'skipped')

    def v2_runner_on_unreachable(self, result, **kwargs):
        self._show(result, 'unreachable')
        self._record(result, 'unreachable')
        if self._unreachable_path:
            try:
                with open(self._unreachable_path, 'a') as f:
                    f.write('%s\n' % result._host.get_name())
            except OSError:
                pass

    def v2_runner_item_on_ok(self, result):
        self._show(result, self._status(result), item=True)

    def v2_runner_item_on_failed(self, result):
        self._show(result, 'failed', item=True)

    def v2_runner_item_on_skipped(self, result):
        self._show(result, 'skipped', item=True)

    def v2_runner_retry(self, result):
        self._emit('%s | FAILED - RETRYING: %s (%s retries left)' % (
            result._host.get_name(), result._task.get_name().strip(),
            result._result.get('retries', 0) - result._result.get('attempts', 0)))

    def v2_playbook_on_no_hosts_matched(self):
        self._log('skipping: no hosts matched')

    def v2_playbook_on_stats(self, stats):
        if self._follower is not None:
            self._follower.stop()
        self._log('')
        self._log('PLAY RECAP')
        summary = {}
        for host in sorted(stats.processed.keys()):
            s = stats.summarize(host)
            summary[host] = s
            self._emit('%s | ok: %d changed: %d unreachable: %d failed: %d skipped: %d rescued: %d ignored: %d' % (
                host, s['ok'], s['changed'], s['unreachable'], s['failures'], s['skipped'], s['rescued'],
                s['ignored']))
        self._log('')
        self._write_output(stats=summary, force=True)

