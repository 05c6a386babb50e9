#!/usr/bin/python
# Sluice's `command` module (docs/executor.md#the-console-callback), used by `command` and
# `shell` tasks alike (Ansible's `shell` and `command` actions call `ansible.legacy.command`,
# which a module of this name in the configured library overrides).
#
# It takes the arguments of Ansible's own module and returns the same result (rc, cmd, stdout,
# stderr, start, end, delta, msg), and writes every output line, as it comes, to the console file
# Sluice's callback gives it (`sluice_console`), which the callback follows while the task runs.
# Unless `sluice_split_streams` is set, stderr is merged into stdout, as the reference does by
# default (the job attribute `ansible-split-streams`). Written for Sluice.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = '''
module: command
short_description: Run a command, streaming its output to the Sluice console
description:
  - Takes the arguments of ansible.builtin.command and ansible.builtin.shell.
options: {}
'''

import datetime
import glob
import os
import selectors
import shlex
import subprocess

from ansible.module_utils.basic import AnsibleModule


def timestamp(at):
    return at.strftime('%Y-%m-%d %H:%M:%S.%f')


def open_console(path, no_log):
    """The console file, when it may and can be written (its folder exists on this host)."""
    if not path or no_log or not os.path.isdir(os.path.dirname(path)):
        return None
    try:
        return open(path, 'ab', buffering=0)
    except OSError:
        return None


def run(args, shell, executable, stdin, console, split):
    """Run the command; returns (rc, stdout bytes, stderr bytes)."""
    if shell:
        argv = [executable or '/bin/sh', '-c', args]
    else:
        argv = args
    process = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE if split else subprocess.STDOUT,
        close_fds=True,
    )
    if stdin is not None:
        try:
            process.stdin.write(stdin)
        except BrokenPipeError:
            pass
        process.stdin.close()
    selector = selectors.DefaultSelector()
    buffers = {'stdout': bytearray(), 'stderr': bytearray()}
    pending = {'stdout': b'', 'stderr': b''}
    selector.register(process.stdout, selectors.EVENT_READ, 'stdout')
    if split:
        selector.register(process.stderr, selectors.EVENT_READ, 'stderr')
    while selector.get_map():
        for key, _ in selector.select():
            chunk = os.read(key.fileobj.fileno(), 65536)
            if not chunk:
                selector.unregister(key.fileobj)
                key.fileobj.close()
                if console is not None and pending[key.data]:
                    console.write(pending[key.data] + b'\n')
                continue
            buffers[key.data] += chunk
            if console is not None:
                lines = (pending[key.data] + chunk).split(b'\n')
                pending[key.data] = lines.pop()
                if lines:
                    console.write(b''.join(line + b'\n' for line in lines))
    return process.wait(), bytes(buffers['stdout']), bytes(buffers['stderr'])


def main():
    module = AnsibleModule(
        argument_spec=dict(
            _raw_params=dict(),
            _uses_shell=dict(type='bool', default=False),
            argv=dict(type='list', elements='str'),
            cmd=dict(),
            chdir=dict(type='path'),
            executable=dict(),
            creates=dict(type='path'),
            removes=dict(type='path'),
            stdin=dict(required=False),
            stdin_add_newline=dict(type='bool', default=True),
            strip_empty_ends=dict(type='bool', default=True),
            expand_argument_vars=dict(type='bool', default=True),
            warn=dict(type='bool'),
            sluice_console=dict(type='str'),
            sluice_split_streams=dict(type='bool', default=False),
        ),
        supports_check_mode=True,
    )
    p = module.params
    shell = p['_uses_shell']
    args = p['_raw_params'] or p['cmd']
    argv = p['argv']
    executable = p['executable']
    result = dict(changed=False, stdout='', stderr='', rc=None, cmd=None, start=None, end=None, delta=None, msg='')

    if not shell and executable:
        module.warn("The parameter 'executable' is only used by shell tasks; not using '%s'." % executable)
        executable = None
    if (not args or args.strip() == '') and not argv:
        result.update(rc=256, msg='no command given')
        module.fail_json(**result)
    if args and argv:
        result.update(rc=256, msg='only command or argv can be given, not both')
        module.fail_json(**result)
    if not shell:
        command = shlex.split(args) if args else [str(a) for a in argv]
        if p['expand_argument_vars']:
            command = [os.path.expanduser(os.path.expandvars(a)) for a in command]
        if not command:
            result.update(rc=256, msg='no command given')
            module.fail_json(**result)
    else:
        command = args if args else ' '.join(shlex.quote(str(a)) for a in argv)
    result['cmd'] = command

    if p['chdir']:
        try:
            os.chdir(p['chdir'])
        except OSError as e:
            result['msg'] = 'Unable to change directory before execution: %s' % e
            module.fail_json(**result)

    would = 'Would' if module.check_mode else 'Did'
    if p['creates'] and glob.glob(p['creates']):
        result.update(msg="%s not run command since '%s' exists" % (would, p['creates']),
                      stdout='skipped, since %s exists' % p['creates'], rc=0)
    elif p['removes'] and not glob.glob(p['removes']):
        result.update(msg="%s not run command since '%s' does not exist" % (would, p['removes']),
                      stdout='skipped, since %s does not exist' % p['removes'], rc=0)
    if result['msg']:
        module.exit_json(**result)

    result['changed'] = True
    if module.check_mode:
        result.update(rc=0, msg='Command would have run if not in check mode')
        if p['creates'] is None and p['removes'] is None:
            result.update(skipped=True, changed=False)
        module.exit_json(**result)

    stdin = None
    if p['stdin'] is not None:
        stdin = p['stdin'].encode('utf-8') + (b'\n' if p['stdin_add_newline'] else b'')
    console = open_console(p['sluice_console'], module.no_log)
    start = datetime.datetime.now()
    try:
        rc, out, err = run(command, shell, executable, stdin, console, p['sluice_split_streams'])
    except OSError as e:
        result.update(rc=2, msg='[Errno %s] %s' % (e.errno, e.strerror), stderr=str(e))
        module.fail_json(**result)
    finally:
        if console is not None:
            console.close()
    end = datetime.datetime.now()
    result.update(rc=rc, start=timestamp(start), end=timestamp(end), delta=str(end - start))
    if '.' not in result['delta']:
        result['delta'] += '.000000'
    result['stdout'] = out.decode('utf-8', 'replace')
    result['stderr'] = err.decode('utf-8', 'replace')
    if p['strip_empty_ends']:
        result['stdout'] = result['stdout'].rstrip('\r\n')
        result['stderr'] = result['stderr'].rstrip('\r\n')
    if rc != 0:
        result['msg'] = 'non-zero return code'
        module.fail_json(**result)
    module.exit_json(**result)


if __name__ == '__main__':
    main()
