//! The GPU catalog: memory and MIG profiles per model, and whether a MIG
//! layout fits on one card.
//!
//! Data: `shared/reference/gpu-sharing.md` §5 and §12, derived from the NVIDIA
//! MIG User Guide ("Supported GPUs", "Supported MIG Profiles") and
//! `NVIDIA/mig-parted:deployments/systemd/config-default.yaml` (the maximum
//! count of each profile is its homogeneous `all-<profile>` config).
//!
//! Fit rule (§5.3): a set of instances fits on one GPU when the sum of compute
//! slices and the sum of memory slices stay within the card's totals and at
//! most one `+me` instance is used. On A100 geometry this agrees exactly with
//! the placement table of `nvidia-smi mig -lgipp`; Hopper and Blackwell are
//! assumed to place like A100 (§11.1).

/// One MIG profile of a GPU model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MigProfile {
    /// As in the resource name: `1g.10gb`, `1g.10gb+me`.
    pub name: &'static str,
    pub memory_gib: u32,
    pub compute_slices: u32,
    pub memory_slices: u32,
    /// Most instances of this profile on one GPU.
    pub max_count: u32,
    /// `+me`: media extensions; at most one per GPU.
    pub media: bool,
}

/// One GPU model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuModel {
    /// The name a Scenario writes: `A100-80GB`.
    pub model: &'static str,
    /// Other names (GFD product labels, marketing names).
    pub aliases: &'static [&'static str],
    /// The marketing size (`16` for a T4): a label only.
    pub memory_gib: u32,
    /// The total memory `nvidia-smi` shows (`15360MiB` on a T4), which is
    /// also what NVML, PyTorch's `torch.cuda.mem_get_info` and GFD's
    /// `nvidia.com/gpu.memory` report: the device memory podlab uses.
    /// Sources per model in `docs/simulator.md` ("GPU memory").
    pub usable_mib: u32,
    /// `(compute slices, memory slices)` when the card supports MIG.
    pub mig_slices: Option<(u32, u32)>,
    pub profiles: &'static [MigProfile],
}

const fn p(name: &'static str, memory_gib: u32, compute: u32, memory: u32, max: u32) -> MigProfile {
    MigProfile {
        name,
        memory_gib,
        compute_slices: compute,
        memory_slices: memory,
        max_count: max,
        media: false,
    }
}

const fn me(name: &'static str, memory_gib: u32, compute: u32, memory: u32) -> MigProfile {
    MigProfile {
        name,
        memory_gib,
        compute_slices: compute,
        memory_slices: memory,
        max_count: 1,
        media: true,
    }
}

const fn plain(
    model: &'static str,
    aliases: &'static [&'static str],
    memory_gib: u32,
    usable_mib: u32,
) -> GpuModel {
    GpuModel {
        model,
        aliases,
        memory_gib,
        usable_mib,
        mig_slices: None,
        profiles: &[],
    }
}

const EIGHT: Option<(u32, u32)> = Some((7, 8));
const FOUR: Option<(u32, u32)> = Some((4, 4));

const P80: &[MigProfile] = &[
    p("1g.10gb", 10, 1, 1, 7),
    me("1g.10gb+me", 10, 1, 1),
    p("1g.20gb", 20, 1, 2, 4),
    p("2g.20gb", 20, 2, 2, 3),
    p("3g.40gb", 40, 3, 4, 2),
    p("4g.40gb", 40, 4, 4, 1),
    p("7g.80gb", 80, 7, 8, 1),
];

/// Every model podlab knows, in the order `podlab` lists them. The last
/// number of each is the `nvidia-smi` total in MiB (sources in
/// `docs/simulator.md`, "GPU memory"); for V100, A30, H100-96GB, GH200,
/// GB200, B300 and RTX PRO 6000 it is still the nominal size (UNCONFIRMED).
pub static CATALOG: &[GpuModel] = &[
    plain("T4", &["Tesla-T4"], 16, 15360),
    plain("V100", &["Tesla-V100"], 32, 32768),
    plain("L4", &["NVIDIA-L4"], 24, 23034),
    plain("A10G", &["NVIDIA-A10G"], 24, 23028),
    plain("A10", &["NVIDIA-A10"], 24, 23028),
    plain("L40S", &["NVIDIA-L40S"], 48, 46068),
    GpuModel {
        model: "A30-24GB",
        aliases: &["A30"],
        memory_gib: 24,
        usable_mib: 24576,
        mig_slices: FOUR,
        profiles: &[
            p("1g.6gb", 6, 1, 1, 4),
            me("1g.6gb+me", 6, 1, 1),
            p("2g.12gb", 12, 2, 2, 2),
            me("2g.12gb+me", 12, 2, 2),
            p("4g.24gb", 24, 4, 4, 1),
        ],
    },
    GpuModel {
        model: "A100-40GB",
        aliases: &["A100-SXM4-40GB", "A100-PCIE-40GB"],
        memory_gib: 40,
        usable_mib: 40960,
        mig_slices: EIGHT,
        profiles: &[
            p("1g.5gb", 5, 1, 1, 7),
            me("1g.5gb+me", 5, 1, 1),
            p("1g.10gb", 10, 1, 2, 4),
            p("2g.10gb", 10, 2, 2, 3),
            p("3g.20gb", 20, 3, 4, 2),
            p("4g.20gb", 20, 4, 4, 1),
            p("7g.40gb", 40, 7, 8, 1),
        ],
    },
    GpuModel {
        model: "A100-80GB",
        aliases: &["A100-SXM4-80GB", "A100-PCIE-80GB", "A100-80GB-PCIe", "A100"],
        memory_gib: 80,
        usable_mib: 81920,
        mig_slices: EIGHT,
        profiles: P80,
    },
    GpuModel {
        model: "H100-80GB",
        aliases: &[
            "H100-SXM5-80GB",
            "H100-PCIE-80GB",
            "NVIDIA-H100-80GB-HBM3",
            "H100",
        ],
        memory_gib: 80,
        usable_mib: 81559,
        mig_slices: EIGHT,
        profiles: P80,
    },
    GpuModel {
        model: "H100-94GB",
        aliases: &["H100-NVL", "H100-SXM5-94GB", "H100-PCIE-94GB"],
        memory_gib: 94,
        usable_mib: 95330,
        mig_slices: EIGHT,
        profiles: &[
            p("1g.12gb", 12, 1, 1, 7),
            me("1g.12gb+me", 12, 1, 1),
            p("1g.24gb", 24, 1, 2, 4),
            p("2g.24gb", 24, 2, 2, 3),
            p("3g.47gb", 47, 3, 4, 2),
            p("4g.47gb", 47, 4, 4, 1),
            p("7g.94gb", 94, 7, 8, 1),
        ],
    },
    GpuModel {
        model: "H100-96GB",
        aliases: &["H100 on GH200", "H20"],
        memory_gib: 96,
        usable_mib: 98304,
        mig_slices: EIGHT,
        profiles: &[
            p("1g.12gb", 12, 1, 1, 7),
            me("1g.12gb+me", 12, 1, 1),
            p("1g.24gb", 24, 1, 2, 4),
            p("2g.24gb", 24, 2, 2, 3),
            p("3g.48gb", 48, 3, 4, 2),
            p("4g.48gb", 48, 4, 4, 1),
            p("7g.96gb", 96, 7, 8, 1),
        ],
    },
    GpuModel {
        model: "H200-141GB",
        aliases: &["H200-SXM5", "H200-NVL", "NVIDIA-H200", "H200"],
        memory_gib: 141,
        usable_mib: 143771,
        mig_slices: EIGHT,
        profiles: &[
            p("1g.18gb", 18, 1, 1, 7),
            me("1g.18gb+me", 18, 1, 1),
            p("1g.35gb", 35, 1, 2, 4),
            p("2g.35gb", 35, 2, 2, 3),
            p("3g.71gb", 71, 3, 4, 2),
            p("4g.71gb", 71, 4, 4, 1),
            p("7g.141gb", 141, 7, 8, 1),
        ],
    },
    GpuModel {
        model: "GH200-144GB",
        aliases: &["GH200 144G HBM3e", "GH200"],
        memory_gib: 144,
        usable_mib: 147456,
        mig_slices: EIGHT,
        profiles: &[
            p("1g.18gb", 18, 1, 1, 7),
            me("1g.18gb+me", 18, 1, 1),
            p("1g.36gb", 36, 1, 2, 4),
            p("2g.36gb", 36, 2, 2, 3),
            p("3g.72gb", 72, 3, 4, 2),
            p("4g.72gb", 72, 4, 4, 1),
            p("7g.144gb", 144, 7, 8, 1),
        ],
    },
    GpuModel {
        model: "B200-180GB",
        aliases: &["B200", "NVIDIA-B200"],
        memory_gib: 180,
        usable_mib: 183359,
        mig_slices: EIGHT,
        profiles: &[
            p("1g.23gb", 23, 1, 1, 7),
            me("1g.23gb+me", 23, 1, 1),
            p("1g.45gb", 45, 1, 2, 4),
            p("2g.45gb", 45, 2, 2, 3),
            p("3g.90gb", 90, 3, 4, 2),
            p("4g.90gb", 90, 4, 4, 1),
            p("7g.180gb", 180, 7, 8, 1),
        ],
    },
    GpuModel {
        model: "GB200-186GB",
        aliases: &["GB200"],
        memory_gib: 186,
        usable_mib: 190464,
        mig_slices: EIGHT,
        profiles: &[
            p("1g.23gb", 23, 1, 1, 7),
            me("1g.23gb+me", 23, 1, 1),
            p("1g.47gb", 47, 1, 2, 4),
            p("2g.47gb", 47, 2, 2, 3),
            p("3g.93gb", 93, 3, 4, 2),
            p("4g.93gb", 93, 4, 4, 1),
            p("7g.186gb", 186, 7, 8, 1),
        ],
    },
    GpuModel {
        model: "B300-288GB",
        aliases: &["B300"],
        memory_gib: 288,
        usable_mib: 294912,
        mig_slices: EIGHT,
        profiles: &[
            p("1g.34gb", 34, 1, 1, 7),
            p("1g.67gb", 67, 1, 2, 4),
            p("2g.67gb", 67, 2, 2, 3),
            p("3g.135gb", 135, 3, 4, 2),
            p("4g.135gb", 135, 4, 4, 1),
            p("7g.269gb", 269, 7, 8, 1),
        ],
    },
    GpuModel {
        model: "RTX-PRO-6000-Blackwell-96GB",
        aliases: &[
            "RTX PRO 6000 Blackwell Server Edition",
            "NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition",
        ],
        memory_gib: 96,
        usable_mib: 98304,
        mig_slices: FOUR,
        profiles: &[
            p("1g.24gb", 24, 1, 1, 4),
            p("2g.48gb", 48, 2, 2, 2),
            p("4g.96gb", 96, 4, 4, 1),
        ],
    },
];

/// Finds a model by its name or an alias, ignoring ASCII case.
pub fn lookup(name: &str) -> Option<&'static GpuModel> {
    let name = name.trim();
    CATALOG.iter().find(|gpu| {
        gpu.model.eq_ignore_ascii_case(name)
            || gpu
                .aliases
                .iter()
                .any(|alias| alias.eq_ignore_ascii_case(name))
    })
}

impl GpuModel {
    pub fn supports_mig(&self) -> bool {
        self.mig_slices.is_some()
    }

    pub fn profile(&self, name: &str) -> Option<&'static MigProfile> {
        self.profiles.iter().find(|profile| profile.name == name)
    }

    /// Device memory in bytes, as `nvidia-smi` and CUDA report it
    /// ([`GpuModel::usable_mib`]), not the marketing size.
    pub fn memory_bytes(&self) -> i128 {
        i128::from(self.usable_mib) << 20
    }
}

impl MigProfile {
    pub fn memory_bytes(&self) -> i128 {
        i128::from(self.memory_gib) << 30
    }
}

/// Why a MIG layout cannot be created on one GPU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutError {
    /// The model has no MIG.
    NoMig,
    /// A profile name the model does not offer.
    UnknownProfile(String),
    /// More compute slices than the card has: (used, total).
    Compute(u32, u32),
    /// More memory slices than the card has: (used, total).
    Memory(u32, u32),
    /// More than one `+me` instance.
    Media,
}

/// Checks that `layout` (profile names, one per instance) fits on one GPU.
pub fn check_layout(gpu: &GpuModel, layout: &[String]) -> Result<(), LayoutError> {
    let Some((total_compute, total_memory)) = gpu.mig_slices else {
        return Err(LayoutError::NoMig);
    };
    let (mut compute, mut memory, mut media) = (0, 0, 0);
    for name in layout {
        let profile = gpu
            .profile(name)
            .ok_or_else(|| LayoutError::UnknownProfile(name.clone()))?;
        compute += profile.compute_slices;
        memory += profile.memory_slices;
        media += u32::from(profile.media);
    }
    if compute > total_compute {
        return Err(LayoutError::Compute(compute, total_compute));
    }
    if memory > total_memory {
        return Err(LayoutError::Memory(memory, total_memory));
    }
    if media > 1 {
        return Err(LayoutError::Media);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(names: &[&str]) -> Vec<String> {
        names.iter().map(|name| name.to_string()).collect()
    }

    #[test]
    fn models_are_found_by_name_and_alias() {
        assert_eq!(lookup("a100-80gb").map(|g| g.model), Some("A100-80GB"));
        assert_eq!(lookup("Tesla-T4").map(|g| g.model), Some("T4"));
        assert!(lookup("GTX-1080").is_none());
        assert!(!lookup("L4").is_some_and(GpuModel::supports_mig));
    }

    #[test]
    fn layouts_follow_the_slice_sums() {
        let a100 = lookup("A100-80GB").unwrap();
        // 4g + 3g fits (4g at 0, 3g at 4); 3 × 2g + 1g fits.
        assert_eq!(check_layout(a100, &layout(&["4g.40gb", "3g.40gb"])), Ok(()));
        assert_eq!(
            check_layout(a100, &layout(&["2g.20gb", "2g.20gb", "2g.20gb", "1g.10gb"])),
            Ok(())
        );
        // 3g + 3g + 1g needs 9 memory slices of 8 (gpu-sharing.md §5.3).
        assert_eq!(
            check_layout(a100, &layout(&["3g.40gb", "3g.40gb", "1g.10gb"])),
            Err(LayoutError::Memory(9, 8))
        );
        assert_eq!(
            check_layout(a100, &layout(&["1g.5gb"])),
            Err(LayoutError::UnknownProfile("1g.5gb".into()))
        );
        assert_eq!(
            check_layout(lookup("T4").unwrap(), &layout(&["1g.5gb"])),
            Err(LayoutError::NoMig)
        );
    }

    #[test]
    fn max_counts_agree_with_the_slice_sums() {
        // The homogeneous all-<profile> configs must themselves fit, and one
        // more instance must not (except +me, limited by the media rule).
        for gpu in CATALOG.iter().filter(|gpu| gpu.supports_mig()) {
            for profile in gpu.profiles {
                let full = vec![profile.name.to_string(); profile.max_count as usize];
                assert_eq!(
                    check_layout(gpu, &full),
                    Ok(()),
                    "{} {}",
                    gpu.model,
                    profile.name
                );
                let over = vec![profile.name.to_string(); profile.max_count as usize + 1];
                assert!(
                    check_layout(gpu, &over).is_err(),
                    "{} {}",
                    gpu.model,
                    profile.name
                );
            }
        }
    }
}
