import {
  allowedHostEnvironment,
  flattenVariables,
  InvalidVariableError,
  mergeVariables,
} from '../../../src/executor/step-environment';

describe('step environment', () => {
  it('keeps only allow-listed host variables', () => {
    expect(
      allowedHostEnvironment({
        PATH: '/bin',
        DATABASE_URL: 'postgres://x',
        AWS_SECRET_ACCESS_KEY: 'k',
        LANG: 'en_US.UTF-8',
        HOME: '/root',
      }),
    ).toEqual({
      PATH: '/bin',
      LANG: 'en_US.UTF-8',
    });
  });

  it('flattens nested variables with __ and exports mappings and lists as JSON too', () => {
    expect(flattenVariables({ a: 'x', n: 3, b: true, z: null, m: { k: { deep: 'v' } }, l: [1, { x: 'y' }] })).toEqual({
      variables: {
        SLUICE_VAR_a: 'x',
        SLUICE_VAR_n: '3',
        SLUICE_VAR_b: 'true',
        SLUICE_VAR_z: '',
        SLUICE_VAR_m: '{"k":{"deep":"v"}}',
        SLUICE_VAR_m__k: '{"deep":"v"}',
        SLUICE_VAR_m__k__deep: 'v',
        SLUICE_VAR_l: '[1,{"x":"y"}]',
        SLUICE_VAR_l__0: '1',
        SLUICE_VAR_l__1: '{"x":"y"}',
        SLUICE_VAR_l__1__x: 'y',
      },
      skipped: [],
    });
  });

  it('refuses invalid top-level names and NUL characters, and skips unexportable nested keys', () => {
    expect(() => flattenVariables({ '9lives': 1 })).toThrow(InvalidVariableError);
    expect(() => flattenVariables({ 'a.b': 1 })).toThrow(InvalidVariableError);
    expect(() => flattenVariables({ a: 'x\u0000y' })).toThrow('Variable a contains a NUL character');
    expect(flattenVariables({ a: { 'my-key': 1, ok: 2 } })).toEqual({
      variables: { SLUICE_VAR_a: '{"my-key":1,"ok":2}', SLUICE_VAR_a__ok: '2' },
      skipped: ['a.my-key'],
    });
  });

  it('merges vars, parent data and extra-vars, later sources winning, mappings deeply', () => {
    expect(mergeVariables({ a: 1, m: { x: 1, y: 1 } }, { m: { y: 2 } }, { a: 3, m: { z: 3 } })).toEqual({
      a: 3,
      m: { x: 1, y: 2, z: 3 },
    });
  });
});
