//! The lint worker (Trunk `data-type="worker"`): the rules, started by the
//! page's first lint, without the terminal's engine.

fn main() {
    podlab_web::kubectl_worker::start_lint();
}
