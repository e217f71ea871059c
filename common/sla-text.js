'use strict';
// How an SLA reads in the loader's lines and the report's ("p99 <= 10 ms"): one wording for both.
const slaText = (sla) => `${sla.percentile} <= ${sla.target_ms} ms`;

module.exports = { slaText };
