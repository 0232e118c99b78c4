//! Generates the parser from `grammar/pfir.lalrpop` into `OUT_DIR`.

fn main() {
    lalrpop::Configuration::new()
        .use_cargo_dir_conventions()
        .set_in_dir("grammar")
        .emit_rerun_directives(true)
        .process()
        .expect("generating the parser from grammar/pfir.lalrpop");
}
