#pragma once
// The Bessel functions of real order, scipy.special's jv, yv, iv and kv, in
// double precision, for NVRTC and the host compiler alike.
//
// For x > 0 and order nu >= 0 (Numerical Recipes' bessjy/bessik scheme,
// after Barnett, Steed and Temme), with mu = nu less a whole number, in
// [-1/2, 1/2]: from x = 2, the continued fraction CF1 gives J'_nu/J_nu
// (I'_nu/I_nu), a downward recurrence carries it to mu, Steed's complex
// continued fraction CF2 gives Y_mu, Y_mu+1 (K_mu, K_mu+1) there, and the
// Wronskian fixes J_mu (I_mu) and so the scale of the recurrence; below
// x = 2, Y_mu, Y_mu+1 (K_mu, K_mu+1) come from Temme's series and J (I) is
// its power series, as the Wronskian cancels there. Y (K) then recurs
// upward to nu, which is stable for them. For x large against nu^2 / 8
// Hankel's asymptotic expansion replaces the continued fractions, whose
// length and rounding grow with x. Temme's series needs 1/Gamma(1 +- mu)
// and their difference quotient, taken from the Taylor series of
// 1/Gamma(1 + x) (Abramowitz & Stegun 6.1.34), which has no cancellation
// as mu -> 0. I and K are carried scaled by e^-x and e^x where x >= 2, so
// that neither overflows early.
// Negative orders follow from the reflection formulas, negative x from
// J_n(-x) = (-1)^n J_n(x) (integer n; NaN otherwise), as SciPy's do; at
// x = 0 and x = +-inf the values are SciPy's.

#define KILN_BESSEL_JV 0
#define KILN_BESSEL_YV 1
#define KILN_BESSEL_IV 2
#define KILN_BESSEL_KV 3
#define KILN_BESSEL_IVE 4  // I_v(x) e^-|x|
#define KILN_BESSEL_KVE 5  // K_v(x) e^x

#define KILN_BESSEL_PI 3.14159265358979323846
#define KILN_BESSEL_EPS 1e-16
#define KILN_BESSEL_TINY 1e-300
#define KILN_BESSEL_MAX_STEPS 1000000

// Taylor coefficients of 1/Gamma(1 + x) about 0.
__device__ __forceinline__ double kiln_bessel_rgamma_coefficient(int k) {
  const double c[23] = {1.0, 0.57721566490153286061, -0.65587807152025388108, -0.042002635034095235529,
                        0.1665386113822914895, -0.042197734555544336748, -0.0096219715278769735621,
                        0.0072189432466630995424, -0.0011651675918590651121, -0.00021524167411495097282,
                        0.00012805028238811618615, -0.000020134854780788238656, -1.2504934821426706573e-6,
                        1.1330272319816958824e-6, -2.0563384169776071035e-7, 6.1160951044814158179e-9,
                        5.0020076444692229301e-9, -1.1812745704870201446e-9, 1.0434267116911005105e-10,
                        7.782263439905071254e-12, -3.6968056186422057082e-12, 5.100370287454475979e-13,
                        -2.0583260535665067832e-14};
  return c[k];
}

// For |mu| <= 1/2: gam1 = (1/Gamma(1-mu) - 1/Gamma(1+mu)) / (2 mu),
// gam2 = (1/Gamma(1-mu) + 1/Gamma(1+mu)) / 2, and the two reciprocals.
__device__ __forceinline__ void kiln_bessel_temme_gammas(double mu, double* gam1, double* gam2, double* gampl,
                                                         double* gammi) {
  double odd = 0, even = 0;
  for (int k = 22; k >= 0; --k) {
    if (k % 2) odd = odd * mu * mu + kiln_bessel_rgamma_coefficient(k);
    else even = even * mu * mu + kiln_bessel_rgamma_coefficient(k);
  }
  *gam1 = -odd;  // the odd part over mu
  *gam2 = even;
  *gampl = even + mu * odd;
  *gammi = even - mu * odd;
}

// sin(pi v) and cos(pi v), exact at integers and half-integers.
__device__ __forceinline__ void kiln_bessel_sincospi(double v, double* s, double* c) {
  double r = fmod(v, 2.0);  // in (-2, 2)
  if (r < 0) r += 2.0;
  if (r == 0) { *s = 0; *c = 1; return; }
  if (r == 0.5) { *s = 1; *c = 0; return; }
  if (r == 1) { *s = 0; *c = -1; return; }
  if (r == 1.5) { *s = -1; *c = 0; return; }
  *s = sin(KILN_BESSEL_PI * r);
  *c = cos(KILN_BESSEL_PI * r);
}

// J_nu(x) (sign -1) or I_nu(x) (sign +1) for 0 < x < 2 by their power
// series (x/2)^nu sum (sign x^2/4)^k / (k! Gamma(nu + k + 1)): there the
// terms fall from the first, and no ratio of large quantities is needed
// (the Wronskian that fixes them for larger x cancels badly near x = 0).
__device__ __forceinline__ double kiln_bessel_series(double x, double nu, double sign) {
  const double q = sign * 0.25 * x * x;
  double term = 1, sum = 1;
  for (int k = 1; k < 200; ++k) {
    term *= q / (k * (nu + k));
    sum += term;
    if (fabs(term) <= KILN_BESSEL_EPS * fabs(sum)) break;
  }
  return nu == 0 ? sum : sum * exp(nu * log(0.5 * x) - lgamma(nu + 1));
}

// Hankel's expansion of J_nu and Y_nu for x large against nu^2.
__device__ __forceinline__ void kiln_bessel_jy_asymptotic(double x, double nu, double* j, double* y) {
  const double mu = 4 * nu * nu;
  double p = 1, q = 0, term = 1;
  for (int k = 1; k < 200; ++k) {
    const double previous = fabs(term);
    term *= (mu - (2.0 * k - 1) * (2.0 * k - 1)) / (k * 8.0 * x);
    // once (2k-1)^2 passes mu the terms shrink to a smallest one, and grow after it
    if (fabs(term) > previous && (2.0 * k - 1) * (2.0 * k - 1) > mu) break;
    if (k % 2) q += (k % 4 == 1 ? 1 : -1) * term;
    else p += (k % 4 == 2 ? -1 : 1) * term;
    if (fabs(term) < KILN_BESSEL_EPS * (fabs(p) + fabs(q))) break;
  }
  // chi = x - (nu/2 + 1/4) pi, its sine and cosine taken apart so that the
  // large x loses no more than its own rounding
  double s, c;
  kiln_bessel_sincospi(0.5 * nu + 0.25, &s, &c);
  const double sx = sin(x), cx = cos(x);
  const double cos_chi = cx * c + sx * s, sin_chi = sx * c - cx * s;
  const double scale = sqrt(2 / (KILN_BESSEL_PI * x));
  *j = scale * (p * cos_chi - q * sin_chi);
  *y = scale * (p * sin_chi + q * cos_chi);
}

// Temme's start at x < 2 for an order |mu| <= 1/2, common to Y's and K's
// series: f = scale (pi mu / sin(pi mu)) (gam1 cosh(sigma) + gam2 ln(2/x)
// sinh(sigma)/sigma), p = (x/2)^-mu / Gamma(1 + mu) numerator / divisor,
// q = (x/2)^mu / Gamma(1 - mu) numerator / divisor, sigma = mu ln(2/x):
// Y's series takes scale 2/pi, numerator 1, divisor pi; K's 1, 1/2, 1.
__device__ __forceinline__ void kiln_bessel_temme_start(double x, double mu, double scale, double numerator,
                                                        double divisor, double* f, double* p, double* q) {
  const double pimu = KILN_BESSEL_PI * mu;
  const double fact0 = fabs(pimu) < KILN_BESSEL_EPS ? 1 : pimu / sin(pimu);
  const double dl = -log(0.5 * x);
  const double e = mu * dl;
  const double fact2 = fabs(e) < KILN_BESSEL_EPS ? 1 : sinh(e) / e;
  double gam1, gam2, gampl, gammi;
  kiln_bessel_temme_gammas(mu, &gam1, &gam2, &gampl, &gammi);
  *f = scale * fact0 * (gam1 * cosh(e) + gam2 * fact2 * dl);
  const double ex = exp(e);
  *p = numerator * ex / (gampl * divisor);
  *q = numerator / (ex * divisor * gammi);
}

// The three-term recurrence run down nl orders from nu on unnormalised
// values: f_(l-1) = (l/x) f_l + f'_l, f'_(l-1) = ((l-1)/x) f_(l-1) + sign
// f_l (sign -1 for J, +1 for I), rescaled before it overflows, the value at
// nu (*top) alongside.
__device__ __forceinline__ void kiln_bessel_recur_down(int nl, double nu, double xi, double sign, double* value,
                                                       double* derivative, double* top) {
  double fact = nu * xi;
  for (int l = nl - 1; l >= 0; --l) {
    const double next = fact * *value + *derivative;
    fact -= xi;
    *derivative = fact * next + sign * *value;
    *value = next;
    if (fabs(*value) > 1e200) {
      *value *= 1e-200;
      *derivative *= 1e-200;
      *top *= 1e-200;
    }
  }
}

// Y (sign -1) or K (sign +1) carried up nl orders from f_mu, f_(mu+1):
// f_(n+1) = (2n/x) f_n + sign f_(n-1), which is stable for them, until it
// overflows.
__device__ __forceinline__ double kiln_bessel_recur_up(int nl, double mu, double xi2, double sign, double f0,
                                                       double f1) {
  for (int i = 1; i <= nl && !isinf(f0); ++i) {
    const double next = (mu + i) * xi2 * f1 + sign * f0;
    f0 = f1;
    f1 = next;
  }
  return f0;
}

// J_nu(x) and Y_nu(x) for x > 0, nu >= 0. Below x = 2, J is its power
// series and Y Temme's; from x = 2, CF1 and CF2 with the Wronskian.
__device__ __forceinline__ void kiln_bessel_jy(double x, double nu, double* j, double* y) {
  // measured against 30-digit values: the expansion holds to 1e-15 of the
  // amplitude from here, where the continued fractions lose 1e-14 and more
  if (x >= 20 && x >= 0.125 * nu * nu + 10) {
    kiln_bessel_jy_asymptotic(x, nu, j, y);
    return;
  }
  const int nl = x < 2 ? (int)(nu + 0.5) : (nu - x + 1.5 > 0 ? (int)(nu - x + 1.5) : 0);
  const double mu = nu - nl, mu2 = mu * mu;
  const double xi = 1 / x, xi2 = 2 * xi, w = xi2 / KILN_BESSEL_PI;
  double y_mu, y_mu1;
  if (x < 2) {  // Temme's series for Y_mu, Y_mu+1
    double ff, p, q;
    kiln_bessel_temme_start(x, mu, 2 / KILN_BESSEL_PI, 1, KILN_BESSEL_PI, &ff, &p, &q);
    const double x2 = 0.5 * x, pimu2 = 0.5 * KILN_BESSEL_PI * mu;
    const double fact3 = fabs(pimu2) < KILN_BESSEL_EPS ? 1 : sin(pimu2) / pimu2;
    const double r = KILN_BESSEL_PI * pimu2 * fact3 * fact3;
    double cc = 1, sum = ff + r * q, sum1 = p;
    const double dd = -x2 * x2;
    for (int i = 1; i < KILN_BESSEL_MAX_STEPS; ++i) {
      ff = (i * ff + p + q) / (i * (double)i - mu2);
      cc *= dd / i;
      p /= i - mu;
      q /= i + mu;
      const double del = cc * (ff + r * q);
      sum += del;
      sum1 += cc * p - i * del;
      if (fabs(del) < (1 + fabs(sum)) * KILN_BESSEL_EPS) break;
    }
    y_mu = -sum;
    y_mu1 = -sum1 * xi2;
    *j = kiln_bessel_series(x, nu, -1);
  } else {
    // CF1: J'_nu / J_nu, by the modified Lentz method
    int sign = 1;
    double h = nu * xi < KILN_BESSEL_TINY ? KILN_BESSEL_TINY : nu * xi;
    double b = xi2 * nu, d = 0, c = h;
    for (int i = 0; i < KILN_BESSEL_MAX_STEPS; ++i) {
      b += xi2;
      d = b - d;
      if (fabs(d) < KILN_BESSEL_TINY) d = KILN_BESSEL_TINY;
      c = b - 1 / c;
      if (fabs(c) < KILN_BESSEL_TINY) c = KILN_BESSEL_TINY;
      d = 1 / d;
      const double del = c * d;
      h *= del;
      if (d < 0) sign = -sign;
      if (fabs(del - 1) <= KILN_BESSEL_EPS) break;
    }
    // down from nu to mu on an unnormalised J
    double jl = sign * 1e-200, jpl = h * jl, j_top = jl;
    kiln_bessel_recur_down(nl, nu, xi, -1, &jl, &jpl, &j_top);
    if (jl == 0) jl = KILN_BESSEL_EPS;
    const double f = jpl / jl;
    // Steed's CF2: p + iq = (J'_mu + iY'_mu) / (J_mu + iY_mu)
    double a = 0.25 - mu2, p = -0.5 * xi, q = 1;
    const double br = 2 * x;
    double bi = 2;
    double fact1 = a * xi / (p * p + q * q);
    double cr = br + q * fact1, ci = bi + p * fact1;
    double den = br * br + bi * bi;
    double dr = br / den, di = -bi / den;
    double dlr = cr * dr - ci * di, dli = cr * di + ci * dr;
    double temp = p * dlr - q * dli;
    q = p * dli + q * dlr;
    p = temp;
    for (int i = 1; i < KILN_BESSEL_MAX_STEPS; ++i) {
      a += 2 * i;
      bi += 2;
      dr = a * dr + br;
      di = a * di + bi;
      if (fabs(dr) + fabs(di) < KILN_BESSEL_TINY) dr = KILN_BESSEL_TINY;
      fact1 = a / (cr * cr + ci * ci);
      cr = br + cr * fact1;
      ci = bi - ci * fact1;
      if (fabs(cr) + fabs(ci) < KILN_BESSEL_TINY) cr = KILN_BESSEL_TINY;
      den = dr * dr + di * di;
      dr /= den;
      di /= -den;
      dlr = cr * dr - ci * di;
      dli = cr * di + ci * dr;
      temp = p * dlr - q * dli;
      q = p * dli + q * dlr;
      p = temp;
      if (fabs(dlr - 1) + fabs(dli) <= KILN_BESSEL_EPS) break;
    }
    const double gam = (p - f) / q;
    double j_mu = sqrt(w / ((p - f) * gam + q));
    if (jl < 0) j_mu = -j_mu;
    y_mu = j_mu * gam;
    const double y_mup = y_mu * (p + q / gam);
    y_mu1 = mu * xi * y_mu - y_mup;
    *j = j_top * (j_mu / jl);
  }
  *y = kiln_bessel_recur_up(nl, mu, xi2, -1, y_mu, y_mu1);
}

// I_nu(x) e^-s and K_nu(x) e^s for x > 0, nu >= 0, where s = x for x >= 2
// and 0 below (*scaled says which). Below x = 2, I is its power series and
// K Temme's; from x = 2, CF1 and CF2 with the Wronskian.
__device__ __forceinline__ void kiln_bessel_ik(double x, double nu, double* i_out, double* k_out, bool* scaled) {
  const int nl = (int)(nu + 0.5);
  const double mu = nu - nl, mu2 = mu * mu;
  const double xi = 1 / x, xi2 = 2 * xi;
  double k_mu, k_mu1;
  *scaled = x >= 2;
  if (x < 2) {  // Temme's series for K_mu, K_mu+1
    double ff, p, q;
    kiln_bessel_temme_start(x, mu, 1, 0.5, 1, &ff, &p, &q);
    const double x2 = 0.5 * x;
    double sum = ff, cc = 1, sum1 = p;
    const double dd = x2 * x2;
    for (int i = 1; i < KILN_BESSEL_MAX_STEPS; ++i) {
      ff = (i * ff + p + q) / (i * (double)i - mu2);
      cc *= dd / i;
      p /= i - mu;
      q /= i + mu;
      const double del = cc * ff;
      sum += del;
      sum1 += cc * (p - i * ff);
      if (fabs(del) < fabs(sum) * KILN_BESSEL_EPS) break;
    }
    k_mu = sum;
    k_mu1 = sum1 * xi2;
    *i_out = kiln_bessel_series(x, nu, 1);
  } else {
    // CF1: I'_nu / I_nu
    double h = nu * xi < KILN_BESSEL_TINY ? KILN_BESSEL_TINY : nu * xi;
    double b = xi2 * nu, d = 0, c = h;
    for (int i = 0; i < KILN_BESSEL_MAX_STEPS; ++i) {
      b += xi2;
      d = 1 / (b + d);
      c = b + 1 / c;
      const double del = c * d;
      h *= del;
      if (fabs(del - 1) <= KILN_BESSEL_EPS) break;
    }
    // down from nu to mu on an unnormalised I
    double il = 1e-200, ipl = h * il, i_top = il;
    kiln_bessel_recur_down(nl, nu, xi, 1, &il, &ipl, &i_top);
    const double f = ipl / il;
    // Steed's CF2 (Thompson and Barnett), K scaled by e^x
    double bb = 2 * (1 + x), dd = 1 / bb, hh = dd, delh = dd, q1 = 0, q2 = 1;
    const double a1 = 0.25 - mu2;
    double q = a1, cc = a1, a = -a1, s = 1 + q * delh;
    for (int i = 1; i < KILN_BESSEL_MAX_STEPS; ++i) {
      a -= 2 * i;
      cc = -a * cc / (i + 1.0);
      const double qnew = (q1 - bb * q2) / a;
      q1 = q2;
      q2 = qnew;
      q += cc * qnew;
      bb += 2;
      dd = 1 / (bb + a * dd);
      delh = (bb * dd - 1) * delh;
      hh += delh;
      const double dels = q * delh;
      s += dels;
      if (fabs(dels / s) <= KILN_BESSEL_EPS) break;
    }
    hh = a1 * hh;
    k_mu = sqrt(KILN_BESSEL_PI / (2 * x)) / s;
    k_mu1 = k_mu * (mu + x + 0.5 - hh) * xi;
    const double k_mup = mu * xi * k_mu - k_mu1;
    const double i_mu = xi / (f * k_mu - k_mup);  // the Wronskian, scaled alike
    *i_out = i_top * (i_mu / il);
  }
  *k_out = kiln_bessel_recur_up(nl, mu, xi2, 1, k_mu, k_mu1);
}

__device__ __forceinline__ bool kiln_bessel_is_integer(double v) { return floor(v) == v; }

// Below this x, for orders 0 and >= 1, the series' first terms are exact to
// rounding, and the continued fractions' nu/x would overflow; orders in
// (0, 1) recur at most one step, which stays in range.
#define KILN_BESSEL_TINY_X 1e-100
#define KILN_BESSEL_EULER 0.57721566490153286061

// J_nu (I_nu) and Y_nu (K_nu) for 0 < x < KILN_BESSEL_TINY_X, nu >= 0: the
// leading terms (x/2)^nu / Gamma(nu + 1) and -Gamma(nu) (2/x)^nu / pi
// (Gamma(nu) (2/x)^nu / 2), the logarithm for nu = 0.
__device__ __forceinline__ void kiln_bessel_tiny_x(double x, double nu, double* regular, double* y, double* k) {
  *regular = nu == 0 ? 1 : exp(nu * log(0.5 * x) - lgamma(nu + 1));
  if (nu == 0) {
    *y = 2 / KILN_BESSEL_PI * (log(0.5 * x) + KILN_BESSEL_EULER);
    *k = -(log(0.5 * x) + KILN_BESSEL_EULER);
  } else {
    const double big = exp(lgamma(nu) + nu * log(2 / x));
    *y = -big / KILN_BESSEL_PI;
    *k = 0.5 * big;
  }
}

// x < 0 for J and I: f_n(-x) = (-1)^n f_n(x) for an integer order n, so x
// becomes |x| and *sign that (-1)^n; false where there is no real value (a
// non-integer order).
__device__ __forceinline__ bool kiln_bessel_negative_x(double v, bool integer, double* x, double* sign) {
  *sign = 1;
  if (*x >= 0) return true;
  if (!integer) return false;
  *x = -*x;
  *sign = fmod(fabs(v), 2.0) == 1 ? -1 : 1;
  return true;
}

__device__ __forceinline__ double kiln_bessel_jv_yv(double v, double x, bool want_y) {
  const double nan = 0.0 / 0.0, inf = 1.0 / 0.0;
  if (isnan(v) || isnan(x)) return nan;
  const bool integer = kiln_bessel_is_integer(v);
  double sign;
  if ((want_y && x < 0) || !kiln_bessel_negative_x(v, integer, &x, &sign)) return nan;
  const double nu = fabs(v);
  if (x == 0) {
    // Y_-nu = sin(nu pi) J_nu + cos(nu pi) Y_nu: -inf times cos(nu pi), with
    // SciPy's sign at the half-integers, where its cos(pi nu) rounds off zero
    if (want_y) return integer ? (v < 0 && fmod(nu, 2.0) == 1 ? inf : -inf)
                               : (v < 0 && cos(KILN_BESSEL_PI * nu) < 0 ? inf : -inf);
    if (v == 0) return 1;
    if (v > 0 || integer) return 0;
    return tgamma(v + 1) > 0 ? inf : -inf;  // J_v(x) ~ (x/2)^v / Gamma(v + 1)
  }
  if (isinf(x)) return nan;  // SciPy's, for J and Y alike
  double j, y, k;
  if (x < KILN_BESSEL_TINY_X && (nu == 0 || nu >= 1)) kiln_bessel_tiny_x(x, nu, &j, &y, &k);
  else kiln_bessel_jy(x, nu, &j, &y);
  if (v >= 0) return sign * (want_y ? y : j);
  double s, c;
  kiln_bessel_sincospi(nu, &s, &c);
  // J_-nu = cos(nu pi) J_nu - sin(nu pi) Y_nu; Y_-nu = sin(nu pi) J_nu + cos(nu pi) Y_nu
  if (want_y) return (s == 0 ? 0 : s * j) + (c == 0 ? 0 : c * y);
  return sign * ((c == 0 ? 0 : c * j) - (s == 0 ? 0 : s * y));
}

// I_v(x), or K_v(x); with `exponentially_scaled` I_v(x) e^-|x| or K_v(x) e^x.
__device__ __forceinline__ double kiln_bessel_iv_kv(double v, double x, bool want_k, bool exponentially_scaled) {
  const double nan = 0.0 / 0.0, inf = 1.0 / 0.0;
  if (isnan(v) || isnan(x)) return nan;
  const bool integer = kiln_bessel_is_integer(v);
  double sign;
  if ((want_k && x < 0) || !kiln_bessel_negative_x(v, integer, &x, &sign)) return nan;
  const double nu = fabs(v);
  if (x == 0) {  // SciPy's values, I_-nu(0) infinite whatever its sign
    if (want_k) return inf;
    if (v == 0) return 1;
    if (v > 0 || integer) return 0;
    return exponentially_scaled ? nan : inf;
  }
  if (isinf(x)) return want_k && !exponentially_scaled && x > 0 ? 0 : nan;  // SciPy's: only K_v(inf) = 0
  double i, k;
  bool scaled = false;
  if (x < KILN_BESSEL_TINY_X && (nu == 0 || nu >= 1)) {
    double y;
    kiln_bessel_tiny_x(x, nu, &i, &y, &k);
  } else {
    kiln_bessel_ik(x, nu, &i, &k, &scaled);
  }
  if (want_k) {
    if (exponentially_scaled) return scaled ? k : k * exp(x);
    return scaled ? k * exp(-x) : k;
  }
  if (v < 0) {  // I_-nu = I_nu + (2/pi) sin(nu pi) K_nu, K's scale turned to I's
    double s, c;
    kiln_bessel_sincospi(nu, &s, &c);
    if (s != 0) i += 2 / KILN_BESSEL_PI * s * (scaled ? k * exp(-2 * x) : k);
  }
  if (exponentially_scaled) return sign * (scaled ? i : i * exp(-x));
  if (!scaled || i == 0) return sign * i;
  // e^x overflows before I_v(x) does (near x = 710): go through the logarithm there
  return sign * (x < 700 ? i * exp(x) : exp(x + log(i)));
}

// out[e] = one of the four functions of (v[e], x[e]), n elements.
extern "C" __global__ void kiln_bessel_real_order(const double* v, const double* x, double* out, long long n,
                                                  int which) {
  for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < n; e += (long long)gridDim.x * blockDim.x) {
    switch (which) {
      case KILN_BESSEL_JV: out[e] = kiln_bessel_jv_yv(v[e], x[e], false); break;
      case KILN_BESSEL_YV: out[e] = kiln_bessel_jv_yv(v[e], x[e], true); break;
      case KILN_BESSEL_IV: out[e] = kiln_bessel_iv_kv(v[e], x[e], false, false); break;
      case KILN_BESSEL_KV: out[e] = kiln_bessel_iv_kv(v[e], x[e], true, false); break;
      case KILN_BESSEL_IVE: out[e] = kiln_bessel_iv_kv(v[e], x[e], false, true); break;
      default: out[e] = kiln_bessel_iv_kv(v[e], x[e], true, true); break;
    }
  }
}
