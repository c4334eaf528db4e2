/**
 * The calibration table (ADR 067): every score below which a detector's or the OCR's guess is not
 * grounds for alt text, next to the figure that set it. The detection figures come from
 * `node apps/api/bench/calibrate-detections.ts --set <photo set>`: for each detection at score ≥ s
 * on the development photo set (145 images), whether the alt text editors wrote for the photograph
 * names that thing ("agreement"). A score is grounds from the band where agreement reaches about
 * 85 %; a kind that never reaches it is never named. Runs are recorded in docs/benchmarks.md.
 * Change a number only with a new measurement.
 */
export const detectionCalibration = {
  /**
   * A specific thing (a bus, a chair): vehicles agree 2 of 3 at ≥ 0.6 and 1 of 1 at ≥ 0.7; other
   * things 0 of 2 at ≥ 0.5 and none seen above. Below this an animal or vehicle is named by its
   * family only, anything else not at all.
   */
  specificScore: 0.7,
  /** A person box: 45 of 51 agree at ≥ 0.5 (88 %), 58 of 72 at ≥ 0.4 (81 %). */
  personScore: 0.5,
  /** Labels the detector gives round windows, rooftops and paintings (compose.ts `confusable`): no agreement seen below. */
  confusableScore: 0.8,
  /** An animal or vehicle named by its family ("an animal"): animals 0 of 1 at ≥ 0.5, 1 of 4 at ≥ 0.4; vehicles 2 of 3 at ≥ 0.6. */
  familyScore: 0.6,
  /** A face inside a person box: 43 of 48 agree at ≥ 0.5 (90 %). */
  faceInPersonScore: 0.5,
  /** A face with no person box around it: 21 of 24 agree at ≥ 0.7 (88 %), 23 of 28 at ≥ 0.6 (82 %), 27 of 43 at ≥ 0.5 (63 %). */
  faceAloneScore: 0.7,
  /** Confidence (0..100) every word of a photograph's quoted text needs: "Texis" at 88 is not "Texas" (ADR 044). */
  photoWordConfidence: 90,
  /**
   * Share of a graphic's words (three letters or more) that must be known words or spelled by the
   * page for its text to be grounds: "CITYLIGHTS your aceesto the" has 2 of 4 known, 3 of 4 on a
   * page about City Lights, and is not; the text entries of the web-graphics development set that
   * are words have all of them known or on their page.
   */
  graphicKnownWordShare: 0.8,
} as const;
