//! Fitting an evaluation's weights to game results (Texel-style tuning).
//!
//! An evaluation that is a logistic model of the mover's win chance over
//! features, `P(win) = 1 / (1 + e^-(w·f))`, is fitted to positions labelled
//! with the mover's final result (1, ½ or 0) by Newton's method on the
//! log-loss. A Gaussian prior pulls each weight towards a given value, so a
//! feature that the games never show keeps it, and the Hessian stays
//! positive definite.

/// One position: its features and the mover's result in `[0, 1]`.
pub type Sample = (Vec<f32>, f32);

/// Newton steps: the log-loss is convex and the start is usually close.
const NEWTON_STEPS: usize = 12;

/// Fits `prior.len()` weights to `data` with a prior of strength `pull`
/// around `prior`; the sums over samples run on `threads` threads.
pub fn fit_logistic(prior: &[f64], data: &[Sample], pull: f64, threads: usize) -> Vec<f64> {
    let n = prior.len();
    let mut w = prior.to_vec();
    let chunk = data.len().div_ceil(threads.max(1)).max(1);
    for _ in 0..NEWTON_STEPS {
        let parts: Vec<(Vec<f64>, Vec<f64>)> = std::thread::scope(|s| {
            let w = &w;
            let handles: Vec<_> = data
                .chunks(chunk)
                .map(|part| s.spawn(move || gradient_and_hessian(w, part)))
                .collect();
            handles.into_iter().filter_map(|h| h.join().ok()).collect()
        });
        let mut grad: Vec<f64> = (0..n).map(|i| pull * (w[i] - prior[i])).collect();
        let mut hess = vec![0.0; n * n];
        for i in 0..n {
            hess[i * n + i] = pull;
        }
        for (g, h) in &parts {
            grad.iter_mut().zip(g).for_each(|(a, b)| *a += b);
            hess.iter_mut().zip(h).for_each(|(a, b)| *a += b);
        }
        let step = solve(n, hess, grad);
        w.iter_mut().zip(&step).for_each(|(w, s)| *w -= s);
    }
    w
}

/// Mean log-loss of `w` on `data` (lower is better; ln 2 = 0.693 is a coin).
pub fn log_loss(w: &[f64], data: &[Sample]) -> f64 {
    let sum: f64 = data
        .iter()
        .map(|(f, y)| {
            let p = sigmoid(dot(w, f)).clamp(1e-9, 1.0 - 1e-9);
            let y = f64::from(*y);
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum();
    sum / data.len().max(1) as f64
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn dot(w: &[f64], f: &[f32]) -> f64 {
    w.iter().zip(f).map(|(w, &f)| w * f64::from(f)).sum()
}

/// The log-loss's gradient and Hessian (row-major) over `data`, from each
/// sample's non-zero features only.
fn gradient_and_hessian(w: &[f64], data: &[Sample]) -> (Vec<f64>, Vec<f64>) {
    let n = w.len();
    let mut grad = vec![0.0; n];
    let mut hess = vec![0.0; n * n];
    let mut nz: Vec<(usize, f64)> = Vec::with_capacity(n);
    for (f, y) in data {
        nz.clear();
        nz.extend(
            f.iter()
                .take(n)
                .enumerate()
                .filter(|(_, &x)| x != 0.0)
                .map(|(i, &x)| (i, f64::from(x))),
        );
        let p = sigmoid(nz.iter().map(|&(i, x)| w[i] * x).sum());
        let (r, s) = (p - f64::from(*y), p * (1.0 - p));
        for &(i, xi) in &nz {
            grad[i] += r * xi;
            let row = &mut hess[i * n..(i + 1) * n];
            for &(j, xj) in &nz {
                row[j] += s * xi * xj;
            }
        }
    }
    (grad, hess)
}

/// Solves `a x = b` (`a` n×n, row-major) by Gaussian elimination with
/// partial pivoting; `a` is positive definite here, thanks to the prior.
fn solve(n: usize, mut a: Vec<f64>, mut b: Vec<f64>) -> Vec<f64> {
    for c in 0..n {
        let p = (c..n)
            .max_by(|&i, &j| a[i * n + c].abs().total_cmp(&a[j * n + c].abs()))
            .unwrap_or(c);
        if p != c {
            for j in 0..n {
                a.swap(c * n + j, p * n + j);
            }
            b.swap(c, p);
        }
        for r in c + 1..n {
            let k = a[r * n + c] / a[c * n + c];
            for j in c..n {
                a[r * n + j] -= k * a[c * n + j];
            }
            b[r] -= k * b[c];
        }
    }
    let mut x = vec![0.0; n];
    for c in (0..n).rev() {
        let s: f64 = (c + 1..n).map(|j| a[c * n + j] * x[j]).sum();
        x[c] = (b[c] - s) / a[c * n + c];
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// Results drawn from a known model: the fit finds its weights again,
    /// from a start far away, and predicts better than the start.
    #[test]
    fn recovers_the_weights_of_a_known_model() {
        let truth = [0.5, -1.5, 2.0, 0.0];
        let mut rng = SmallRng::seed_from_u64(7);
        let data: Vec<Sample> = (0..40_000)
            .map(|_| {
                let f: Vec<f32> = (0..truth.len())
                    .map(|i| {
                        if i == 0 {
                            1.0
                        } else {
                            rng.gen_range(-1.0..1.0)
                        }
                    })
                    .collect();
                let p = sigmoid(dot(&truth, &f));
                (f, if rng.gen_bool(p) { 1.0 } else { 0.0 })
            })
            .collect();
        let start = [0.0; 4];
        let w = fit_logistic(&start, &data, 1.0, 2);
        for (got, want) in w.iter().zip(truth) {
            assert!((got - want).abs() < 0.06, "{w:?} against {truth:?}");
        }
        assert!(log_loss(&w, &data) < log_loss(&start, &data) - 0.05);
    }

    /// A feature no sample shows keeps its prior value.
    #[test]
    fn unseen_features_keep_the_prior() {
        let data: Vec<Sample> = (0..1000)
            .map(|i| (vec![1.0, 0.0], if i % 4 == 0 { 1.0 } else { 0.0 }))
            .collect();
        let w = fit_logistic(&[0.0, 0.7], &data, 1.0, 1);
        assert!((w[1] - 0.7).abs() < 1e-9);
        // 1 in 4 won: the logit of 0.25, slightly pulled towards 0.
        assert!((w[0] - (1.0f64 / 3.0).ln()).abs() < 0.01, "{w:?}");
    }

    #[test]
    fn solves_a_small_system() {
        let x = solve(2, vec![0.0, 2.0, 3.0, 1.0], vec![4.0, 5.0]);
        assert!((x[0] - 1.0).abs() < 1e-12 && (x[1] - 2.0).abs() < 1e-12);
    }
}
