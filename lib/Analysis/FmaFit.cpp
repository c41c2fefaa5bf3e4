//===- FmaFit.cpp - fitting the FP32 model's calibration -------*- C++ -*-===//
//
// What `tile-tune fit` runs on measured kernels: the FmaCalibration that
// minimises the mean squared log error of the model's times, by Nelder-Mead
// over the logarithms of its numbers (all positive).
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/FmaModel.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::tile;

std::vector<double> mlir::tile::nelderMead(
    std::vector<double> start,
    llvm::function_ref<double(const std::vector<double> &)> f,
    int iterationsPerDim) {
  size_t n = start.size();
  std::vector<std::vector<double>> simplex(n + 1, start);
  for (size_t i = 0; i < n; ++i)
    simplex[i + 1][i] += 0.5;
  std::vector<double> values;
  for (const std::vector<double> &x : simplex)
    values.push_back(f(x));
  auto along = [&](const std::vector<double> &from,
                   const std::vector<double> &to, double t) {
    std::vector<double> x(n);
    for (size_t j = 0; j < n; ++j)
      x[j] = from[j] + t * (to[j] - from[j]);
    return x;
  };
  for (int iteration = 0;
       iteration < iterationsPerDim * static_cast<int>(n); ++iteration) {
    std::vector<size_t> order(n + 1);
    for (size_t i = 0; i <= n; ++i)
      order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return values[a] < values[b]; });
    std::vector<std::vector<double>> sorted;
    std::vector<double> sortedValues;
    for (size_t i : order) {
      sorted.push_back(simplex[i]);
      sortedValues.push_back(values[i]);
    }
    simplex = std::move(sorted);
    values = std::move(sortedValues);
    std::vector<double> centroid(n, 0.0);
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j)
        centroid[j] += simplex[i][j] / n;
    std::vector<double> reflected = along(centroid, simplex[n], -1);
    double fr = f(reflected);
    if (fr < values[0]) {
      std::vector<double> expanded = along(centroid, simplex[n], -2);
      double fe = f(expanded);
      simplex[n] = fe < fr ? expanded : reflected;
      values[n] = std::min(fe, fr);
    } else if (fr < values[n - 1]) {
      simplex[n] = reflected;
      values[n] = fr;
    } else {
      std::vector<double> contracted = along(centroid, simplex[n], 0.5);
      double fc = f(contracted);
      if (fc < values[n]) {
        simplex[n] = contracted;
        values[n] = fc;
      } else {
        for (size_t i = 1; i <= n; ++i) {
          simplex[i] = along(simplex[0], simplex[i], 0.5);
          values[i] = f(simplex[i]);
        }
      }
    }
  }
  size_t bestIndex =
      std::min_element(values.begin(), values.end()) - values.begin();
  return simplex[bestIndex];
}

double mlir::tile::fmaFitError(llvm::ArrayRef<FmaFitPoint> points,
                               const FmaCalibration &calibration) {
  double sum = 0;
  for (const FmaFitPoint &p : points) {
    double ratio = std::log(calibration.seconds(p.terms) / p.seconds);
    sum += ratio * ratio;
  }
  return points.empty() ? 0 : sum / points.size();
}

double mlir::tile::fmaWithin20(llvm::ArrayRef<FmaFitPoint> points,
                               const FmaCalibration &calibration) {
  int64_t close = 0;
  for (const FmaFitPoint &p : points) {
    double ratio = calibration.seconds(p.terms) / p.seconds;
    close += ratio >= 0.8 && ratio <= 1.2;
  }
  return points.empty() ? 0 : static_cast<double>(close) / points.size();
}

FmaCalibration mlir::tile::fitFmaCalibration(llvm::ArrayRef<FmaFitPoint> points,
                                             const FmaCalibration &start) {
  // Each logarithm is kept within +-60 (numbers from 1e-26 to 1e26): a
  // fit over too few points to pin every number down drifts without
  // bound, and an infinite number would not be written as JSON.
  auto fromLogs = [](std::vector<double> x) {
    for (double &value : x)
      value = std::clamp(value, -60.0, 60.0);
    FmaCalibration c;
    c.timeScale = 1;
    c.computeScale = std::exp(x[0]);
    c.memoryScale = std::exp(x[1]);
    c.launchSeconds = std::exp(x[2]);
    c.atomicsScale = std::exp(x[3]);
    c.ringFactor = std::exp(x[4]);
    c.residencyFactor = std::exp(x[5]);
    c.cRowBytes = std::exp(x[6]);
    c.loadLatencySeconds = std::exp(x[7]);
    c.narrowCopyFactor = std::exp(x[8]);
    return c;
  };
  std::vector<double> logs = {
      std::log(start.timeScale * start.computeScale),
      std::log(start.timeScale * start.memoryScale),
      std::log(std::max(start.launchSeconds, 1e-7)),
      std::log(start.timeScale * start.atomicsScale),
      std::log(start.ringFactor), std::log(start.residencyFactor),
      // Terms the calibration leaves out (0) start at a plausible size:
      // 32 bytes per C row piece, 1 us of load latency.
      std::log(start.cRowBytes > 0 ? start.cRowBytes : 32.0),
      std::log(start.loadLatencySeconds > 0 ? start.loadLatencySeconds
                                            : 1e-6),
      std::log(start.narrowCopyFactor)};
  FmaCalibration best =
      fromLogs(nelderMead(logs, [&](const std::vector<double> &x) {
        return fmaFitError(points, fromLogs(x));
      }));
  if (fmaFitError(points, best) > fmaFitError(points, start))
    return start;
  return best;
}
