//! The tools worker (Trunk `data-type="worker"`): the engines a reader
//! asks for by opening them, in neither the terminal's worker nor the
//! lint's: "From my cluster"'s reader, judge and replay
//! (`podlab_core::paste`), started when that page opens, and the outcome
//! map (`podlab_core::map`), started when the map's panel opens. Both
//! carry the simulator, so one worker holds it once.

fn main() {
    podlab_web::kubectl_worker::start_tools();
}
