// The type donor of llvm14.lua: LLVM 14's IR types for a release build of
// LLVM (Debian's libLLVM-14.so.1 and opt-14 have no debug info). irsnap
// never links or runs this file: `irsnap donor llvm14.lua` compiles it
// with -g against the installed llvm-14-dev headers (and LLVM's private
// IR headers: `scripts/real-compilers llvm-14-headers`, then -I
// build/real/llvm-14-headers/lib/IR), and the debugger loads the DWARF of
// what it names, never its code or data (there is none).
//
// Adding a type is one line: IRSNAP_TYPE(T), for a class, a template
// specialization exactly as the layout names it, or a nested enum. DWARF
// only describes a specialization that is instantiated and a nested enum
// that is named, so name each one the layout reads, even one reached only
// through a pointer (DenseMapPair<...>). Private members are reachable
// (`#define private public` below): the file is never linked, so no
// object's layout changes; for a private member type, an explicit
// instantiation (`template class X<...>;` is exempt from access checks).
//
// irsnap_donor_facts records what these headers are, for the layout's
// donor { fits = ... } to compare with the debuggee: a donor built
// against another LLVM, or with LLVM_ENABLE_ABI_BREAKING_CHECKS
// different from the library's, lays out some classes differently, so
// ir-layout load refuses it in one line.

// The standard library first, untouched by the defines below.
#include <algorithm>
#include <array>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "llvm/Config/abi-breaking.h"
#include "llvm/Config/llvm-config.h"

#define private public
#define protected public
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Argument.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Type.h"
#include "llvm/IR/Use.h"
#include "llvm/IR/User.h"
#include "llvm/IR/Value.h"
#include "llvm/IR/ValueSymbolTable.h"
// LLVM's private IR headers (llvm/lib/IR): value names, metadata
// attachments, attribute sets and constant expressions live there.
#include "AttributeImpl.h"
#include "ConstantsContext.h"
#include "LLVMContextImpl.h"
#undef private
#undef protected

#define IRSNAP_CAT2(a, b) a##b
#define IRSNAP_CAT(a, b) IRSNAP_CAT2(a, b)
// Instantiates T (sizeof needs it complete) and names it (a typedef is
// emitted with -fno-eliminate-unused-debug-types), defining nothing.
#define IRSNAP_TYPE(...)                                                   \
	static_assert(sizeof(__VA_ARGS__) > 0, "a complete type");         \
	typedef __VA_ARGS__ IRSNAP_CAT(irsnap_donor_type_, __LINE__)

enum irsnap_donor_facts : long {
	irsnap_llvm_version_major = LLVM_VERSION_MAJOR,
	irsnap_llvm_version_minor = LLVM_VERSION_MINOR,
	irsnap_llvm_version_patch = LLVM_VERSION_PATCH,
	irsnap_abi_breaking_checks = LLVM_ENABLE_ABI_BREAKING_CHECKS,
};

namespace irsnap_donor {

// Values and users
IRSNAP_TYPE(llvm::Value);
IRSNAP_TYPE(llvm::Value::ValueTy);
IRSNAP_TYPE(llvm::User);
IRSNAP_TYPE(llvm::Use);
IRSNAP_TYPE(llvm::Argument);
IRSNAP_TYPE(llvm::BasicBlock);
IRSNAP_TYPE(llvm::Function);
IRSNAP_TYPE(llvm::GlobalValue);
IRSNAP_TYPE(llvm::GlobalValue::LinkageTypes);
IRSNAP_TYPE(llvm::GlobalObject);
IRSNAP_TYPE(llvm::GlobalVariable);
IRSNAP_TYPE(llvm::InlineAsm);
IRSNAP_TYPE(llvm::InlineAsm::AsmDialect);
IRSNAP_TYPE(llvm::Module);
IRSNAP_TYPE(llvm::LLVMContext);
IRSNAP_TYPE(llvm::ilist_node<llvm::Function>);
IRSNAP_TYPE(llvm::ilist_node<llvm::BasicBlock>);
IRSNAP_TYPE(llvm::ilist_node<llvm::Instruction>);
IRSNAP_TYPE(llvm::ilist_node_base<false>);

// Instructions
IRSNAP_TYPE(llvm::Instruction);
IRSNAP_TYPE(llvm::Instruction::TermOps);
IRSNAP_TYPE(llvm::Instruction::UnaryOps);
IRSNAP_TYPE(llvm::Instruction::BinaryOps);
IRSNAP_TYPE(llvm::Instruction::MemoryOps);
IRSNAP_TYPE(llvm::Instruction::CastOps);
IRSNAP_TYPE(llvm::Instruction::FuncletPadOps);
IRSNAP_TYPE(llvm::Instruction::OtherOps);
IRSNAP_TYPE(llvm::CmpInst);
IRSNAP_TYPE(llvm::CmpInst::Predicate);
IRSNAP_TYPE(llvm::ICmpInst);
IRSNAP_TYPE(llvm::FCmpInst);
IRSNAP_TYPE(llvm::BinaryOperator);
IRSNAP_TYPE(llvm::UnaryOperator);
IRSNAP_TYPE(llvm::CastInst);
IRSNAP_TYPE(llvm::AllocaInst);
IRSNAP_TYPE(llvm::LoadInst);
IRSNAP_TYPE(llvm::StoreInst);
IRSNAP_TYPE(llvm::GetElementPtrInst);
IRSNAP_TYPE(llvm::PHINode);
IRSNAP_TYPE(llvm::CallBase);
IRSNAP_TYPE(llvm::CallInst);
IRSNAP_TYPE(llvm::InvokeInst);
IRSNAP_TYPE(llvm::BranchInst);
IRSNAP_TYPE(llvm::SwitchInst);
IRSNAP_TYPE(llvm::IndirectBrInst);
IRSNAP_TYPE(llvm::ReturnInst);
IRSNAP_TYPE(llvm::SelectInst);
IRSNAP_TYPE(llvm::ExtractElementInst);
IRSNAP_TYPE(llvm::InsertElementInst);
IRSNAP_TYPE(llvm::ShuffleVectorInst);
IRSNAP_TYPE(llvm::ExtractValueInst);
IRSNAP_TYPE(llvm::InsertValueInst);
IRSNAP_TYPE(llvm::AtomicRMWInst);
IRSNAP_TYPE(llvm::AtomicRMWInst::BinOp);
IRSNAP_TYPE(llvm::AtomicCmpXchgInst);
IRSNAP_TYPE(llvm::FenceInst);
IRSNAP_TYPE(llvm::VAArgInst);
IRSNAP_TYPE(llvm::UnreachableInst);
IRSNAP_TYPE(llvm::AtomicOrdering);

// Types
IRSNAP_TYPE(llvm::Type);
IRSNAP_TYPE(llvm::Type::TypeID);
IRSNAP_TYPE(llvm::IntegerType);
IRSNAP_TYPE(llvm::PointerType);
IRSNAP_TYPE(llvm::FunctionType);
IRSNAP_TYPE(llvm::StructType);
IRSNAP_TYPE(llvm::ArrayType);
IRSNAP_TYPE(llvm::VectorType);
IRSNAP_TYPE(llvm::FixedVectorType);

// Constants
IRSNAP_TYPE(llvm::Constant);
IRSNAP_TYPE(llvm::ConstantInt);
IRSNAP_TYPE(llvm::ConstantFP);
IRSNAP_TYPE(llvm::ConstantExpr);
IRSNAP_TYPE(llvm::ConstantAggregate);
IRSNAP_TYPE(llvm::ConstantArray);
IRSNAP_TYPE(llvm::ConstantStruct);
IRSNAP_TYPE(llvm::ConstantVector);
IRSNAP_TYPE(llvm::ConstantDataSequential);
IRSNAP_TYPE(llvm::ConstantDataArray);
IRSNAP_TYPE(llvm::ConstantDataVector);
IRSNAP_TYPE(llvm::ConstantPointerNull);
IRSNAP_TYPE(llvm::ConstantAggregateZero);
IRSNAP_TYPE(llvm::UndefValue);
IRSNAP_TYPE(llvm::BlockAddress);
IRSNAP_TYPE(llvm::PoisonValue);
IRSNAP_TYPE(llvm::GetElementPtrConstantExpr);
IRSNAP_TYPE(llvm::APInt);
IRSNAP_TYPE(llvm::APFloat);
IRSNAP_TYPE(llvm::detail::IEEEFloat);

// Names: LLVMContextImpl::ValueNames maps a Value to its StringMapEntry
IRSNAP_TYPE(llvm::LLVMContextImpl);
IRSNAP_TYPE(llvm::StringMapEntryBase);
IRSNAP_TYPE(llvm::StringMapEntry<llvm::Value *>);
// and CustomMDKindNames a metadata kind's name to its id
IRSNAP_TYPE(llvm::StringMapEntry<unsigned int>);
IRSNAP_TYPE(llvm::StringMap<llvm::Value *>);
IRSNAP_TYPE(llvm::DenseMap<const llvm::Value *, llvm::ValueName *>);
IRSNAP_TYPE(llvm::detail::DenseMapPair<const llvm::Value *,
				       llvm::ValueName *>);
IRSNAP_TYPE(llvm::ValueSymbolTable);

// Metadata
IRSNAP_TYPE(llvm::Metadata);
IRSNAP_TYPE(llvm::Metadata::MetadataKind);
IRSNAP_TYPE(llvm::MDNode);
IRSNAP_TYPE(llvm::MDOperand);
IRSNAP_TYPE(llvm::MDString);
IRSNAP_TYPE(llvm::MDTuple);
IRSNAP_TYPE(llvm::ValueAsMetadata);
IRSNAP_TYPE(llvm::ConstantAsMetadata);
IRSNAP_TYPE(llvm::LocalAsMetadata);
IRSNAP_TYPE(llvm::MetadataAsValue);
IRSNAP_TYPE(llvm::DIExpression);
IRSNAP_TYPE(llvm::DIArgList);
IRSNAP_TYPE(llvm::DILocation);
IRSNAP_TYPE(llvm::DebugLoc);
// Debug-info nodes (DebugInfoMetadata.h): their operands lie before them
// as every MDNode's; what is not metadata (a line, flags, a size) is a
// member of the class.
IRSNAP_TYPE(llvm::DINode);
IRSNAP_TYPE(llvm::DIScope);
IRSNAP_TYPE(llvm::DIFile);
IRSNAP_TYPE(llvm::DICompileUnit);
IRSNAP_TYPE(llvm::DIType);
IRSNAP_TYPE(llvm::DIBasicType);
IRSNAP_TYPE(llvm::DIDerivedType);
IRSNAP_TYPE(llvm::DICompositeType);
IRSNAP_TYPE(llvm::DISubroutineType);
IRSNAP_TYPE(llvm::DISubprogram);
IRSNAP_TYPE(llvm::DILexicalBlock);
IRSNAP_TYPE(llvm::DILexicalBlockFile);
IRSNAP_TYPE(llvm::DINamespace);
IRSNAP_TYPE(llvm::DIModule);
IRSNAP_TYPE(llvm::DISubrange);
IRSNAP_TYPE(llvm::DIEnumerator);
IRSNAP_TYPE(llvm::DIVariable);
IRSNAP_TYPE(llvm::DILocalVariable);
IRSNAP_TYPE(llvm::DIGlobalVariable);
IRSNAP_TYPE(llvm::DIGlobalVariableExpression);
IRSNAP_TYPE(llvm::DILabel);
IRSNAP_TYPE(llvm::DIImportedEntity);
IRSNAP_TYPE(llvm::DITemplateTypeParameter);
IRSNAP_TYPE(llvm::DITemplateValueParameter);
IRSNAP_TYPE(llvm::MDAttachments);
IRSNAP_TYPE(llvm::DenseMap<const llvm::Value *, llvm::MDAttachments>);
IRSNAP_TYPE(llvm::detail::DenseMapPair<const llvm::Value *,
				       llvm::MDAttachments>);

// Attributes
IRSNAP_TYPE(llvm::Attribute::AttrKind);
IRSNAP_TYPE(llvm::AttributeList);
IRSNAP_TYPE(llvm::AttributeSet);
IRSNAP_TYPE(llvm::AttributeListImpl);
IRSNAP_TYPE(llvm::AttributeSetNode);
IRSNAP_TYPE(llvm::AttributeImpl);
IRSNAP_TYPE(llvm::EnumAttributeImpl);
IRSNAP_TYPE(llvm::IntAttributeImpl);
IRSNAP_TYPE(llvm::StringAttributeImpl);
IRSNAP_TYPE(llvm::TypeAttributeImpl);

} // namespace irsnap_donor
