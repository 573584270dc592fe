#pragma once

#include <netser/primitives.hpp>
#include <netser/stream.hpp>
#include <netser/wire_layout.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <unordered_map>

// Linking (Glazer and Madhav, "Multiplayer Game Programming", chapter 4: mHomeBase): a
// pointer to an object that both peers already know travels as the object's network id,
// looked up in a link_context the caller attaches to the stream with
// stream.set_context(&links). Owned data (std::unique_ptr) is embedded instead, with a
// presence bit.

namespace netser {

/// Network ids of shared objects, by type. Id 0 is reserved for nullptr.
class link_context {
public:
    /// Registers object under id (id >= 1). Returns false if id or object is taken.
    template <class T>
    [[nodiscard]] bool add(T* object, std::uint32_t id) {
        if (id == 0 || object == nullptr || by_id_.count(id) != 0 || by_object_.count(object) != 0) return false;
        by_id_.emplace(id, entry{object, type_tag<std::remove_cv_t<T>>()});
        by_object_.emplace(object, id);
        return true;
    }

    /// The id of object; 0 when it is not registered.
    std::uint32_t id_of(const void* object) const noexcept {
        const auto it = by_object_.find(object);
        return it == by_object_.end() ? 0 : it->second;
    }

    /// The id of object as a T: 0 when it is not registered, or registered as another
    /// type (a reader's object_of<T> would not find it).
    template <class T>
    std::uint32_t id_of_typed(const T* object) const noexcept {
        const std::uint32_t id = id_of(object);
        return id != 0 && by_id_.find(id)->second.type == type_tag<std::remove_cv_t<T>>() ? id : 0;
    }

    /// The object of type T registered under id; nullptr when there is none.
    template <class T>
    T* object_of(std::uint32_t id) const noexcept {
        const auto it = by_id_.find(id);
        if (it == by_id_.end() || it->second.type != type_tag<T>()) return nullptr;
        return static_cast<T*>(it->second.object);
    }

private:
    template <class T>
    static const void* type_tag() noexcept {
        static const char tag = 0; // one address per type
        return &tag;
    }
    struct entry {
        void* object;
        const void* type;
    };
    std::unordered_map<std::uint32_t, entry> by_id_;
    std::unordered_map<const void*, std::uint32_t> by_object_;
};

/// What a read does with an id that the link_context does not know.
enum class unknown_link { null, fail };

/// linked(bits): a T* member sent as its id in `bits` bits (0 = nullptr). Writing an
/// unregistered object or one registered as another type than T (which a reader could
/// not find), having no link_context attached, or bits outside [1, 32] fails with
/// invalid_value; an id that needs more than `bits` bits fails with out_of_range.
/// Reading an unknown id, or one registered for another type, gives nullptr, or fails
/// with invalid_value when the attribute says unknown_link::fail.
struct linked {
    int bits;
    unknown_link on_unknown = unknown_link::null;

    constexpr explicit linked(int id_bits, unknown_link unknown = unknown_link::null) noexcept
        : bits(id_bits), on_unknown(unknown) {}

    constexpr std::size_t max_bits() const noexcept { return static_cast<std::size_t>(bits); }
    /// For the schema tools: the id, 0 for nullptr.
    constexpr auto wire() const noexcept { return netser::wire(wire_code("id", bits)); }
    constexpr std::string_view schema_tag() const noexcept {
        return on_unknown == unknown_link::fail ? "linked_strict" : "linked";
    }

    template <stream S, class T>
    bool serialize(S& s, T*& pointer) const noexcept {
        const std::size_t at = s.bits_processed();
        const auto* links = static_cast<const link_context*>(s.context());
        if (links == nullptr || bits < 1 || bits > 32) [[unlikely]] return s.fail(errc::invalid_value, at);
        std::uint32_t id = 0;
        if constexpr (!S::is_reading) {
            if (pointer != nullptr) {
                id = links->id_of_typed(pointer);
                if (id == 0) [[unlikely]] return s.fail(errc::invalid_value, at);
            }
        }
        if (!serialize_bits(s, id, bits)) return false;
        if constexpr (S::is_reading) {
            pointer = id == 0 ? nullptr : links->object_of<std::remove_const_t<T>>(id);
            if (id != 0 && pointer == nullptr && on_unknown == unknown_link::fail) [[unlikely]]
                return s.fail(errc::invalid_value, at);
        }
        return true;
    }
};

} // namespace netser
