//! Weidmann's fundamental diagram for pedestrians (the reference of RiMEA test 4 in Vadere and
//! JuPedSim): v(ρ) = v₀·(1 − exp(−γ·(1/ρ − 1/ρ_max))), with v₀ = 1.34 m/s, ρ_max = 5.4 P/m²,
//! γ = 1.913 P/m².

/// Free walking speed v₀ (m/s).
pub const FREE_SPEED: f32 = 1.34;
/// Jam density ρ_max (persons/m²), where the speed reaches 0.
pub const JAM_DENSITY: f32 = 5.4;
/// Shape constant γ (persons/m²).
pub const GAMMA: f32 = 1.913;

/// Weidmann's walking speed (m/s) at density `rho` (persons/m²); 0 at and above jam density,
/// the free speed for an empty area.
pub fn weidmann_speed(rho: f32) -> f32 {
    if rho <= 0.0 {
        return FREE_SPEED;
    }
    if rho >= JAM_DENSITY {
        return 0.0;
    }
    FREE_SPEED * (1.0 - (-GAMMA * (1.0 / rho - 1.0 / JAM_DENSITY)).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weidmann_reference_points() {
        // ρ = 1 P/m²: 1.34·(1 − e^(−1.913·(1 − 1/5.4))) ≈ 1.058 m/s; ρ = 2: ≈ 0.606; jam at 5.4.
        assert!((weidmann_speed(1.0) - 1.0581).abs() < 1e-3, "{}", weidmann_speed(1.0));
        assert!((weidmann_speed(2.0) - 0.6062).abs() < 1e-3, "{}", weidmann_speed(2.0));
        assert_eq!(weidmann_speed(5.4), 0.0);
        assert_eq!(weidmann_speed(0.0), FREE_SPEED);
    }
}
