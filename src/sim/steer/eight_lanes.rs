//! Eight `f32` lanes with the few operations the flock sums need ([`Lanes`]): one 256-bit AVX
//! vector where the processor has AVX ([`with_eight_lanes`] picks at run time), two of glam's
//! 4-lane vectors (SSE2, NEON or scalar) everywhere else. Every operation is the IEEE operation
//! lane by lane (no fused multiply-add), so both give the same bits: a recording does not depend
//! on which one the processor ran.

use std::ops::{Add, BitAnd, BitOr, Div, Mul, Sub};

use glam::{BVec4A, Vec4};

/// Lanes at once.
pub const WIDTH: usize = 8;

/// Eight `f32` lanes and their masks.
pub trait Lanes: Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self> {
    /// A lane mask: all ones where a comparison holds.
    type Mask: Copy + BitAnd<Output = Self::Mask> + BitOr<Output = Self::Mask>;
    /// `v` in every lane.
    fn splat(v: f32) -> Self;
    /// The first eight values of `values` (which must hold eight).
    fn load(values: &[f32]) -> Self;
    /// The lanes in order.
    fn to_array(self) -> [f32; WIDTH];
    /// Each lane's square root.
    fn sqrt(self) -> Self;
    /// `self < other` (false where either is NaN).
    fn lt(self, other: Self) -> Self::Mask;
    /// `self > other` (false where either is NaN).
    fn gt(self, other: Self) -> Self::Mask;
    /// `self >= other` (false where either is NaN).
    fn ge(self, other: Self) -> Self::Mask;
    /// `self == other` (false where either is NaN).
    fn eq(self, other: Self) -> Self::Mask;
    /// `self != other` (true where either is NaN).
    fn ne(self, other: Self) -> Self::Mask;
    /// `self` where `mask` holds, zero elsewhere.
    fn or_zero(self, mask: Self::Mask) -> Self;
    /// Bit `l` set where `mask` holds in lane `l`.
    fn bitmask(mask: Self::Mask) -> u32;
    /// The sum of the lanes, added from the first to the last.
    fn sum(self) -> f32 {
        self.to_array().iter().fold(0.0, |total, &v| total + v)
    }
}

/// Runs `work` on the widest [`Lanes`] this processor has: one AVX vector when it has AVX,
/// [`Pair`] otherwise (the same bits either way).
#[inline(always)]
pub fn with_eight_lanes<R>(work: impl EightLaneWork<Output = R>) -> R {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: the processor has AVX, the one feature `avx::run` is compiled for.
        return unsafe { avx::run(work) };
    }
    work.run::<Pair>()
}

/// Work written once for any [`Lanes`], which [`with_eight_lanes`] runs on the processor's.
pub trait EightLaneWork {
    /// What the work returns.
    type Output;
    /// Does the work on lanes `L`.
    fn run<L: Lanes>(self) -> Self::Output;
}

/// Eight lanes as two of glam's 4-lane vectors.
#[derive(Clone, Copy, Debug)]
pub struct Pair(Vec4, Vec4);

/// Applies `$op` to both halves.
macro_rules! pair_op {
    ($trait:ident, $method:ident) => {
        impl $trait for Pair {
            type Output = Pair;
            #[inline(always)]
            fn $method(self, other: Pair) -> Pair {
                Pair(self.0.$method(other.0), self.1.$method(other.1))
            }
        }
    };
}
pair_op!(Add, add);
pair_op!(Sub, sub);
pair_op!(Mul, mul);
pair_op!(Div, div);

/// The comparison methods of [`Lanes`] for [`Pair`], each glam's comparison on both halves.
macro_rules! pair_comparisons {
    ($($method:ident: $glam:ident),*) => {
        $(
            #[inline(always)]
            fn $method(self, other: Pair) -> PairMask {
                PairMask(self.0.$glam(other.0), self.1.$glam(other.1))
            }
        )*
    };
}

/// A [`Pair`]'s lane mask.
#[derive(Clone, Copy, Debug)]
pub struct PairMask(BVec4A, BVec4A);

impl BitAnd for PairMask {
    type Output = PairMask;
    #[inline(always)]
    fn bitand(self, other: PairMask) -> PairMask {
        PairMask(self.0 & other.0, self.1 & other.1)
    }
}

impl BitOr for PairMask {
    type Output = PairMask;
    #[inline(always)]
    fn bitor(self, other: PairMask) -> PairMask {
        PairMask(self.0 | other.0, self.1 | other.1)
    }
}

impl Lanes for Pair {
    type Mask = PairMask;
    pair_comparisons!(lt: cmplt, gt: cmpgt, ge: cmpge, eq: cmpeq, ne: cmpne);
    #[inline(always)]
    fn splat(v: f32) -> Pair {
        Pair(Vec4::splat(v), Vec4::splat(v))
    }
    #[inline(always)]
    fn load(values: &[f32]) -> Pair {
        Pair(Vec4::from_slice(&values[..4]), Vec4::from_slice(&values[4..8]))
    }
    #[inline(always)]
    fn to_array(self) -> [f32; WIDTH] {
        let (a, b) = (self.0.to_array(), self.1.to_array());
        [a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]]
    }
    #[inline(always)]
    fn sqrt(self) -> Pair {
        Pair(self.0.map(f32::sqrt), self.1.map(f32::sqrt))
    }
    #[inline(always)]
    fn or_zero(self, mask: Self::Mask) -> Pair {
        Pair(
            Vec4::select(mask.0, self.0, Vec4::ZERO),
            Vec4::select(mask.1, self.1, Vec4::ZERO),
        )
    }
    #[inline(always)]
    fn bitmask(mask: Self::Mask) -> u32 {
        mask.0.bitmask() | mask.1.bitmask() << 4
    }
}

#[cfg(target_arch = "x86_64")]
mod avx {
    //! The AVX lanes. An [`Avx`] exists only inside [`run`], which is compiled for AVX and
    //! called only where the processor has it: that is what makes the intrinsics below sound,
    //! and why their methods are inlined into `run`'s work (so they are compiled for AVX too).

    use std::arch::x86_64::*;
    use std::ops::{Add, BitAnd, BitOr, Div, Mul, Sub};

    use super::{EightLaneWork, Lanes, WIDTH};

    /// Eight lanes as one AVX vector.
    #[derive(Clone, Copy, Debug)]
    pub struct Avx(__m256);

    /// An AVX lane mask.
    #[derive(Clone, Copy, Debug)]
    pub struct AvxMask(__m256);

    /// Runs `work` on [`Avx`] lanes.
    ///
    /// # Safety
    /// The processor must have AVX.
    #[target_feature(enable = "avx")]
    pub unsafe fn run<W: EightLaneWork>(work: W) -> W::Output {
        work.run::<Avx>()
    }

    /// Applies the AVX intrinsic `$intrinsic` lane by lane.
    macro_rules! avx_op {
        ($trait:ident, $method:ident, $intrinsic:ident) => {
            impl $trait for Avx {
                type Output = Avx;
                #[inline(always)]
                fn $method(self, other: Avx) -> Avx {
                    // SAFETY: an `Avx` exists only where the processor has AVX (see `run`).
                    Avx(unsafe { $intrinsic(self.0, other.0) })
                }
            }
        };
    }
    avx_op!(Add, add, _mm256_add_ps);
    avx_op!(Sub, sub, _mm256_sub_ps);
    avx_op!(Mul, mul, _mm256_mul_ps);
    avx_op!(Div, div, _mm256_div_ps);

    impl BitAnd for AvxMask {
        type Output = AvxMask;
        #[inline(always)]
        fn bitand(self, other: AvxMask) -> AvxMask {
            // SAFETY: as for `Avx`.
            AvxMask(unsafe { _mm256_and_ps(self.0, other.0) })
        }
    }

    impl BitOr for AvxMask {
        type Output = AvxMask;
        #[inline(always)]
        fn bitor(self, other: AvxMask) -> AvxMask {
            // SAFETY: as for `Avx`.
            AvxMask(unsafe { _mm256_or_ps(self.0, other.0) })
        }
    }

    /// The comparison methods of [`Lanes`] for [`Avx`], each AVX's comparison with its predicate
    /// (ordered, false where a lane is NaN, but for `ne`).
    macro_rules! avx_comparisons {
        ($($method:ident: $predicate:ident),*) => {
            $(
                #[inline(always)]
                fn $method(self, other: Avx) -> AvxMask {
                    // SAFETY: as for `Avx`.
                    AvxMask(unsafe { _mm256_cmp_ps::<$predicate>(self.0, other.0) })
                }
            )*
        };
    }

    // SAFETY (every `unsafe` below): an `Avx` exists only where the processor has AVX (`run`),
    // and `load` reads eight values that the slice's own indexing has checked are there.
    impl Lanes for Avx {
        type Mask = AvxMask;
        avx_comparisons!(lt: _CMP_LT_OQ, gt: _CMP_GT_OQ, ge: _CMP_GE_OQ, eq: _CMP_EQ_OQ, ne: _CMP_NEQ_UQ);
        #[inline(always)]
        fn splat(v: f32) -> Avx {
            Avx(unsafe { _mm256_set1_ps(v) })
        }
        #[inline(always)]
        fn load(values: &[f32]) -> Avx {
            let values: &[f32; WIDTH] = values[..WIDTH].try_into().expect("eight values");
            Avx(unsafe { _mm256_loadu_ps(values.as_ptr()) })
        }
        #[inline(always)]
        fn to_array(self) -> [f32; WIDTH] {
            let mut out = [0.0; WIDTH];
            unsafe { _mm256_storeu_ps(out.as_mut_ptr(), self.0) };
            out
        }
        #[inline(always)]
        fn sqrt(self) -> Avx {
            Avx(unsafe { _mm256_sqrt_ps(self.0) })
        }
        #[inline(always)]
        fn or_zero(self, mask: AvxMask) -> Avx {
            Avx(unsafe { _mm256_and_ps(self.0, mask.0) })
        }
        #[inline(always)]
        fn bitmask(mask: AvxMask) -> u32 {
            (unsafe { _mm256_movemask_ps(mask.0) }) as u32
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every operation of `L` on values with zeros, NaN, infinities and rounding cases, as bits.
    fn results<L: Lanes>() -> Vec<u32> {
        let a = [0.0, -0.0, 1.0, 3.0, f32::NAN, f32::INFINITY, 1e-30, 7.25];
        let b = [0.0, 2.0, 3.0, 3.0, 1.0, f32::INFINITY, 3e-9, -0.1];
        let (x, y) = (L::load(&a), L::load(&b));
        let mut out: Vec<u32> = [x + y, x - y, x * y, x / y, x.sqrt(), x.or_zero(x.lt(y))]
            .iter()
            .flat_map(|v| v.to_array().map(bits))
            .collect();
        for mask in [
            x.lt(y),
            x.gt(y),
            x.ge(y),
            x.eq(y),
            x.ne(y),
            x.lt(y) | x.eq(y),
            x.ge(y) & x.ne(y),
        ] {
            out.push(L::bitmask(mask));
        }
        out.push(bits((x + y).sum()));
        out
    }

    /// The bits of `v`, any NaN as one (IEEE leaves a NaN's sign and payload open, and the
    /// compiler folds constants to other NaNs than the processor makes).
    fn bits(v: f32) -> u32 {
        if v.is_nan() { u32::MAX } else { v.to_bits() }
    }

    #[test]
    fn the_avx_lanes_give_the_bits_of_the_pair() {
        let pair = results::<Pair>();
        // 0 < 0, -0 < 2, 1 < 3, 3 < 3, NaN < 1, ∞ < ∞, 1e-30 < 3e-9, 7.25 < -0.1: lanes 1, 2 and 6.
        assert_eq!(pair[6 * WIDTH], 0b0100_0110);
        struct Both;
        impl EightLaneWork for Both {
            type Output = Vec<u32>;
            fn run<L: Lanes>(self) -> Vec<u32> {
                results::<L>()
            }
        }
        assert_eq!(with_eight_lanes(Both), pair);
    }
}
