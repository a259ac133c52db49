/**
 * Learning from the user's labels (docs/MODEL.md): what a session shows a model ({@link
 * dev.vigil.learn.Observations}, read through the one model of the dialogue), the features made of
 * it ({@link dev.vigil.learn.FeatureSpace}), the fitted, calibrated linear model ({@link
 * dev.vigil.learn.SessionModel}) and how a pass scores each session with it ({@link
 * dev.vigil.learn.SessionScorer}). Cross-validation and the {@code fit} command's report live
 * above, in {@code dev.vigil.eval}.
 */
package dev.vigil.learn;
