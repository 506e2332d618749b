//! Rating pools: which spellings share a rating.

use tabula_games::{pool_of, registry};

fn pool(spec: &str) -> String {
    pool_of(spec, false).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

#[test]
fn pool_names_for_a_range_of_specs() {
    let cases = [
        ("dragonchess", "dragonchess"),
        (
            "dragonchess(hero_vertical,no_capture_plies=50)",
            "dragonchess",
        ),
        ("gildervaik", "gildervaik"),
        ("gildervaik(mode=conquest)", "gildervaik"),
        ("gildervaik(mode=warrior)", "gildervaik(mode=warrior)"),
        (
            "Gildervaik(Mode=Warrior,first_player=c)",
            "gildervaik(mode=warrior)",
        ),
        (
            "gildervaik(start_cells=free,mode=warrior)",
            "gildervaik(mode=warrior,start_cells=free)",
        ),
        ("phylde", "phylde"),
        ("phylde(setup=lines,first_player=n)", "phylde"),
        ("phylde(setup=block)", "phylde(setup=block)"),
        (
            "phylde(setup=corners_sym,repetition=4)",
            "phylde(setup=corners-sym)",
        ),
        ("stelpur", "stelpur"),
        ("stelpur(preset=seed,protection=none)", "stelpur"),
        ("stelpur(preset=ludii)", "stelpur(preset=ludii)"),
        (
            "stelpur(preset=ludii,protection=all)",
            "stelpur(preset=ludii)",
        ),
        ("stelpur(preset=TableSites)", "stelpur(preset=tablesites)"),
    ];
    for (spec, expected) in cases {
        assert_eq!(pool(spec), expected, "{spec}");
    }
    assert_eq!(
        pool_of("gildervaik(mode=warrior)", true).unwrap(),
        "gildervaik(mode=warrior)/correspondence"
    );
    assert_eq!(
        pool_of("dragonchess", true).unwrap(),
        "dragonchess/correspondence"
    );
}

#[test]
fn non_essential_options_share_the_pool_and_essential_ones_do_not() {
    let same = [
        [
            "gildervaik(mode=warrior)",
            "gildervaik(mode=warrior,majority_capture,capture_removal=end_of_move)",
        ],
        [
            "phylde(setup=block)",
            "phylde(material_draw=false,setup=block,no_capture_turns=40)",
        ],
        [
            "stelpur(preset=tablesites)",
            "stelpur(preset=tablesites,first_player=2,forced_play=free)",
        ],
        [
            "dragonchess",
            "dragonchess(basilisk_freeze_is_check=true,elemental_climb_quiet)",
        ],
    ];
    for [a, b] in same {
        assert_eq!(pool(a), pool(b), "{a} / {b}");
    }
    let different = [
        ["gildervaik", "gildervaik(mode=warrior)"],
        ["phylde", "phylde(setup=lines-drawn)"],
        ["stelpur", "stelpur(preset=ludii)"],
    ];
    for [a, b] in different {
        assert_ne!(pool(a), pool(b), "{a} / {b}");
    }
    assert_ne!(
        pool_of("phylde", false).unwrap(),
        pool_of("phylde", true).unwrap()
    );
}

#[test]
fn a_bad_spec_has_no_pool() {
    let e = pool_of("gildervaik(mode=peace)", false).unwrap_err();
    assert!(e.message.contains("conquest|warrior"), "{e}");
    assert!(pool_of("chess", false).is_err());
}

#[test]
fn every_pool_option_is_an_option_of_its_game() {
    for entry in registry().entries() {
        for key in entry.pool_options {
            assert!(
                entry.options.iter().any(|d| d.key == *key),
                "{}: pool option `{key}` is not an option",
                entry.name
            );
        }
    }
}

#[test]
fn a_pool_name_is_a_spec_of_its_own_pool() {
    // A pool name (without the suffix) reads back as a spec in that pool.
    for spec in [
        "gildervaik(mode=warrior,start_cells=free)",
        "phylde(setup=corners-drawn)",
        "stelpur(preset=ludii,doubles=standard)",
    ] {
        let name = pool(spec);
        assert_eq!(pool(&name), name);
    }
}
