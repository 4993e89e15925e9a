/**
 * A ceiling on wall time that only runaway work can reach: the super-linear cases these tests guard against took
 * seconds to hours before they were fixed, and take milliseconds now. It is not a speed figure (those are measured by
 * `npm run bench`), so it is set far above the figures, where a busy machine cannot reach it.
 */
export const RUNAWAY_MS = 3_000;
