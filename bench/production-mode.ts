/**
 * Imported first by benchmarks that measure request latency: they measure the service as it is
 * deployed. `bin/sluice.js` runs with NODE_ENV=production (unless set otherwise), where graphql-js
 * leaves out its development-only checks; it reads the variable when it is first loaded.
 */
process.env.NODE_ENV ??= 'production';
