# Sluice's `local` connection (docs/executor.md#nodes-of-a-playbook): Ansible's own local
# connection, except that tasks on a Sluice local node run in the node's folder (its
# `sluice_node_dir`, the build's workspace for the executor's own nodes), as tasks on a remote
# node run in its home folder: `zuul.project.src_dir` and other relative paths work the same
# on both. Hosts without a node folder (the implicit `localhost`, `delegate_to: localhost`)
# keep Ansible's behaviour: they run in the playbook's folder. Written for Sluice.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = '''
    name: local
    short_description: execute on the executor, in the Sluice node's folder
    description:
        - Runs tasks on the Ansible controller, in the folder of the Sluice node they are for.
    extends_documentation_fragment:
        - connection_pipelining
    options:
      node_dir:
        description: The Sluice node's folder; tasks run there.
        vars:
          - name: sluice_node_dir
'''

import importlib.util
import os

import ansible.plugins.connection
from ansible.module_utils._text import to_bytes


def _ansible_local():
    # This module is loaded under the name of Ansible's own `local` plugin: load that one from
    # its file under another name.
    source = os.path.join(os.path.dirname(ansible.plugins.connection.__file__), 'local.py')
    spec = importlib.util.spec_from_file_location('sluice_ansible_builtin_local', source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Connection


AnsibleLocalConnection = _ansible_local()


class Connection(AnsibleLocalConnection):

    def exec_command(self, cmd, in_data=None, sudoable=True):
        node_dir = self.get_option('node_dir')
        if node_dir and os.path.isdir(node_dir):
            self.cwd = to_bytes(node_dir, errors='surrogate_or_strict')
        return super(Connection, self).exec_command(cmd, in_data=in_data, sudoable=sudoable)
