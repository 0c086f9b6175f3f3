// The type donor of mlir14.lua: MLIR 14's IR types for a release build
// that links Debian's libMLIR.so.14 (no debug info). irsnap never links
// or runs this file: `irsnap donor mlir14.lua` compiles it with -g
// against the installed libmlir-14-dev headers, and the debugger loads
// the DWARF of what it names, never its code or data (there is none).
// common/layouts/llvm14/donor.cpp says how a donor is written.
//
// MLIR keeps the storages of its builtin types and attributes in private
// headers (lib/IR/TypeDetail.h, AttributeDetail.h) that Debian does not
// install, and in tablegen'd .cpp.inc files that define code as well:
// this donor mirrors each storage mlir14.lua reads, member for member as
// MLIR 14 declares it (namespace irsnap_mlir14 below), so the layout
// reads them by name. A storage MLIR changes must change here too.
#include <algorithm>
#include <array>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>
#include <complex>
#include <sstream>
#include <optional>

#include "llvm/Config/abi-breaking.h"
#include "llvm/Config/llvm-config.h"

#define private public
#define protected public
#include "mlir/IR/Attributes.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Region.h"
#include "mlir/IR/Types.h"
#include "mlir/IR/Value.h"
#include "mlir/Pass/Pass.h"
#undef private
#undef protected

#define IRSNAP_CAT2(a, b) a##b
#define IRSNAP_CAT(a, b) IRSNAP_CAT2(a, b)
#define IRSNAP_TYPE(...)                                                   \
	static_assert(sizeof(__VA_ARGS__) > 0, "a complete type");         \
	typedef __VA_ARGS__ IRSNAP_CAT(irsnap_donor_type_, __LINE__)

enum irsnap_donor_facts : long {
	irsnap_llvm_version_major = LLVM_VERSION_MAJOR,
	irsnap_abi_breaking_checks = LLVM_ENABLE_ABI_BREAKING_CHECKS,
};

namespace irsnap_donor {

// Operations and their trailing objects
IRSNAP_TYPE(mlir::Operation);
IRSNAP_TYPE(mlir::OperationName);
IRSNAP_TYPE(mlir::OperationName::Impl);
IRSNAP_TYPE(mlir::detail::OperandStorage);
IRSNAP_TYPE(mlir::OpOperand);
IRSNAP_TYPE(mlir::BlockOperand);
IRSNAP_TYPE(mlir::Region);
IRSNAP_TYPE(mlir::Block);
IRSNAP_TYPE(mlir::Pass);

// Values
IRSNAP_TYPE(mlir::Value);
IRSNAP_TYPE(mlir::detail::ValueImpl);
IRSNAP_TYPE(mlir::detail::BlockArgumentImpl);
IRSNAP_TYPE(mlir::detail::OpResultImpl);
IRSNAP_TYPE(mlir::detail::InlineOpResult);
IRSNAP_TYPE(mlir::detail::OutOfLineOpResult);
IRSNAP_TYPE(mlir::BlockArgument);

// Types and attributes: the storages' common heads, their abstracts
IRSNAP_TYPE(mlir::Type);
IRSNAP_TYPE(mlir::TypeStorage);
IRSNAP_TYPE(mlir::AbstractType);
IRSNAP_TYPE(mlir::Attribute);
IRSNAP_TYPE(mlir::AttributeStorage);
IRSNAP_TYPE(mlir::AbstractAttribute);
IRSNAP_TYPE(mlir::NamedAttribute);
IRSNAP_TYPE(mlir::TypeID);
IRSNAP_TYPE(mlir::StringAttr);
IRSNAP_TYPE(mlir::DictionaryAttr);

} // namespace irsnap_donor

// MLIR 14's storages, as lib/IR/TypeDetail.h, AttributeDetail.h and the
// installed BuiltinTypes.cpp.inc / BuiltinAttributes.cpp.inc declare them.
namespace irsnap_mlir14 {
// mlir::NamedAttribute { StringAttr name; Attribute value; }
struct NamedAttribute {
	mlir::AttributeStorage *name;
	mlir::AttributeStorage *value;
};
// mlir::OperationName::Impl, its StringAttr name as the storage pointer
struct OperationNameImpl {
	mlir::AttributeStorage *name;
	mlir::Dialect *dialect;
	mlir::TypeID typeID;
};
struct IntegerTypeStorage : mlir::TypeStorage {
	unsigned width : 30;
	unsigned signedness : 2;	// IntegerType::SignednessSemantics
};
struct FunctionTypeStorage : mlir::TypeStorage {
	unsigned numInputs;
	unsigned numResults;
	const mlir::Type *inputsAndResults;
};
struct TupleTypeStorage : mlir::TypeStorage {
	unsigned numElements;	// the types follow the storage
};
struct ComplexTypeStorage : mlir::TypeStorage {
	mlir::Type elementType;
};
struct UnrankedTensorTypeStorage : mlir::TypeStorage {
	mlir::Type elementType;
};
// VectorType, RankedTensorType and MemRefType start alike
struct ShapedTypeStorage : mlir::TypeStorage {
	llvm::ArrayRef<int64_t> shape;
	mlir::Type elementType;
};
struct VectorTypeStorage : ShapedTypeStorage {
	unsigned numScalableDims;
};
struct RankedTensorTypeStorage : ShapedTypeStorage {
	mlir::Attribute encoding;
};
struct MemRefTypeStorage : ShapedTypeStorage {
	// a MemRefLayoutAttrInterface: the attribute, its interface
	mlir::AttributeStorage *layout;
	void *layoutConcept;
	mlir::AttributeStorage *memorySpace;
};
// lib/IR/AffineExprDetail.h, AffineMapDetail.h (the empty base as MLIR
// has it: a derived class's members then share the base's tail padding,
// as AffineDimExprStorage's position does)
struct AffineExprStorage : mlir::StorageUniquer::BaseStorage {
	mlir::MLIRContext *context;
	unsigned kind;		// mlir::AffineExprKind
};
struct AffineDimExprStorage : AffineExprStorage {
	unsigned position;
};
struct AffineMapStorage : mlir::StorageUniquer::BaseStorage {
	unsigned numDims;
	unsigned numSymbols;
	llvm::ArrayRef<AffineExprStorage *> results;
	mlir::MLIRContext *context;
};
struct AffineMapAttrStorage : mlir::AttributeStorage {
	AffineMapStorage *value;	// an AffineMap
};
struct IntegerAttrStorage : mlir::AttributeStorage {
	llvm::APInt value;
};
struct FloatAttrStorage : mlir::AttributeStorage {
	llvm::APFloat value;
};
struct StringAttrStorage : mlir::AttributeStorage {
	llvm::StringRef value;
	mlir::Dialect *referencedDialect;
};
struct TypeAttrStorage : mlir::AttributeStorage {
	mlir::Type value;
};
struct SymbolRefAttrStorage : mlir::AttributeStorage {
	// a StringAttr, and FlatSymbolRefAttrs: each one storage pointer
	mlir::AttributeStorage *rootReference;
	llvm::ArrayRef<mlir::AttributeStorage *> nestedReferences;
};
struct ArrayAttrStorage : mlir::AttributeStorage {
	llvm::ArrayRef<mlir::Attribute> value;
};
struct DictionaryAttrStorage : mlir::AttributeStorage {
	llvm::ArrayRef<NamedAttribute> value;
};
struct DenseIntOrFPElementsAttrStorage : mlir::AttributeStorage {
	bool isSplat;
	llvm::ArrayRef<char> data;
};
IRSNAP_TYPE(IntegerTypeStorage);
IRSNAP_TYPE(FunctionTypeStorage);
IRSNAP_TYPE(TupleTypeStorage);
IRSNAP_TYPE(ComplexTypeStorage);
IRSNAP_TYPE(UnrankedTensorTypeStorage);
IRSNAP_TYPE(ShapedTypeStorage);
IRSNAP_TYPE(VectorTypeStorage);
IRSNAP_TYPE(RankedTensorTypeStorage);
IRSNAP_TYPE(MemRefTypeStorage);
IRSNAP_TYPE(AffineDimExprStorage);
IRSNAP_TYPE(AffineMapStorage);
IRSNAP_TYPE(AffineMapAttrStorage);
IRSNAP_TYPE(IntegerAttrStorage);
IRSNAP_TYPE(FloatAttrStorage);
IRSNAP_TYPE(StringAttrStorage);
IRSNAP_TYPE(TypeAttrStorage);
IRSNAP_TYPE(SymbolRefAttrStorage);
IRSNAP_TYPE(ArrayAttrStorage);
IRSNAP_TYPE(DictionaryAttrStorage);
IRSNAP_TYPE(DenseIntOrFPElementsAttrStorage);
IRSNAP_TYPE(NamedAttribute);
IRSNAP_TYPE(OperationNameImpl);
} // namespace irsnap_mlir14
