//! The kubectl terminal's worker (Trunk `data-type="worker"`).

fn main() {
    podlab_web::kubectl_worker::start();
}
