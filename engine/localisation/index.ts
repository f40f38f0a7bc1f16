/**
 * Fault localisation: instrument a block with coverage probes, run it on the passing and failing cases,
 * and rank its statements and expressions by how suspicious the coverage makes them (spectrum-based,
 * Ochiai; the ranges the generators mutate first). This is the area's face: other areas, and anything outside that uses
 * localisation alone, import from here.
 */
export { instrumentForCoverage } from './coverage-instrumenter.ts';
export { rankSuspicious } from './suspicious-ranking.ts';
