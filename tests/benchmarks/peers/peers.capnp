# Cap'n Proto's form for the two cases, on the integer codes netser sends, in the
# narrowest types that hold them. Unpacked, every field takes its slot; the packed
# encoding drops zero bytes, so the velocity of a cube at rest (0) costs next to nothing.
@0x995d8fb74e6bc436;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("netser_peers::cp");

struct S94 {
  x @0 :Int32;
  y @1 :Int32;
  z @2 :Int32;
  health @3 :UInt8;
  alive @4 :Bool;
  id @5 :UInt32;
}

struct Cube {
  interacting @0 :Bool;
  x @1 :Int16;
  y @2 :Int16;
  z @3 :UInt16;
  vx @4 :Int16;  # the velocity: 0 unless interacting
  vy @5 :Int16;
  vz @6 :Int16;
  largest @7 :UInt8;
  a @8 :Int16;   # smallest three
  b @9 :Int16;
  c @10 :Int16;
}

struct Snapshot {
  cubes @0 :List(Cube);
}
